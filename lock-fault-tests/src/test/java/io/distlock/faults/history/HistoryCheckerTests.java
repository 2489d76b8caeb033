/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.faults.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.distlock.faults.history.History.Attempt;
import io.distlock.faults.history.History.LostNotice;
import io.distlock.faults.history.History.MultiHold;
import io.distlock.faults.history.History.Release;
import io.distlock.faults.history.History.Section;
import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.History.Window;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HistoryChecker} on hand-made histories: a clean one, and ones holding
 * each kind of violation, so that the checker is shown to find them.
 */
class HistoryCheckerTests {

	private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

	private final HistoryChecker checker = new HistoryChecker(Duration.ofMillis(100));

	private final List<Section> sections = new ArrayList<>();

	private final List<StorageOp> ops = new ArrayList<>();

	private final List<Attempt> attempts = new ArrayList<>();

	private final List<LostNotice> lost = new ArrayList<>();

	private final Map<String, Long> killed = new HashMap<>();

	private final List<Window> frozen = new ArrayList<>();

	private final List<String> leftKeys = new ArrayList<>();

	private final List<MultiHold> multiHolds = new ArrayList<>();

	@Test
	void cleanHistoryHasNoViolation() {
		fencedSection("a", "c0", "k", 10, 1);
		fencedSection("b", "c1", "k", 11, 10);
		fencedSection("c", "c2", "other", 5, 20);
		attempt("c0", 500, 520);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
		assertThat(report.sections()).isEqualTo(3);
		assertThat(report.excusedOverlaps()).isZero();
		assertThat(report.details()).isEmpty();
	}

	@Test
	void overlappingSectionsWhoseStaleHolderWasNeverToldAreAnOverlap() {
		section("a", "c0", "k", 10, 1, 10, Release.RELEASED);
		section("b", "c1", "k", 11, 5, 12, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isOne();
		assertThat(report.details()).singleElement().asString().contains("overlaps", "never told");
	}

	@Test
	void overlapWhoseStaleHolderGotALostNoticeIsExcused() {
		section("a", "c0", "k", 10, 1, 10, Release.UNCONFIRMED);
		section("b", "c1", "k", 11, 5, 12, Release.RELEASED);
		this.lost.add(new LostNotice("c0", "k", 10));
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isZero();
		assertThat(report.excusedOverlaps()).isOne();
		assertThat(report.lostSections()).isOne();
	}

	@Test
	void overlapWhoseStaleHolderWasToldOnlyByItsMismatchedReleaseIsCountedApart() {
		section("a", "c0", "k", 10, 1, 10, Release.MISMATCH);
		section("b", "c1", "k", 11, 5, 12, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isZero();
		assertThat(report.excusedOverlaps()).isZero();
		assertThat(report.toldAtReleaseOverlaps()).isOne();
		assertThat(report.summary("s", 0, Set.of())).contains("told-at-release-overlaps=1");
	}

	@Test
	void overlapWhoseStaleHolderGotANoticeAndAMismatchedReleaseIsExcusedOnce() {
		section("a", "c0", "k", 10, 1, 10, Release.MISMATCH);
		section("b", "c1", "k", 11, 5, 12, Release.RELEASED);
		this.lost.add(new LostNotice("c0", "k", 10));
		CheckReport report = check();
		assertThat(report.excusedOverlaps()).isOne();
		assertThat(report.toldAtReleaseOverlaps()).isZero();
	}

	@Test
	void overlapIsNotExcusedWhenOnlyTheNewerHolderWasToldItLostTheLock() {
		section("a", "c0", "k", 10, 1, 10, Release.RELEASED);
		section("b", "c1", "k", 11, 5, 12, Release.MISMATCH);
		assertThat(check().count(Violation.OVERLAP)).isOne();
	}

	@Test
	void staleSectionOverlappedBySeveralLaterOnesCountsOnce() {
		section("a", "c0", "k", 10, 1, 100, Release.RELEASED);
		section("b", "c1", "k", 11, 5, 8, Release.RELEASED);
		section("c", "c2", "k", 12, 9, 12, Release.RELEASED);
		section("d", "c2", "other", 13, 9, 12, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isOne();
		assertThat(report.details()).singleElement().asString().contains("a (token 10", "b (token 11");
	}

	@Test
	void everyOverlappedStaleSectionCounts() {
		section("a", "c0", "k", 10, 1, 6, Release.RELEASED);
		section("b", "c1", "k", 11, 5, 20, Release.RELEASED);
		section("c", "c2", "k", 12, 9, 30, Release.RELEASED);
		assertThat(check().count(Violation.OVERLAP)).isEqualTo(2);
	}

	@Test
	void openSectionOfAKilledClientEndsAtTheKill() {
		section("a", "c0", "k", 10, 1, -1, Release.NONE);
		section("b", "c1", "k", 11, 20, 30, Release.RELEASED);
		this.killed.put("c0", 15L);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
	}

	@Test
	void openSectionOfAClientThatWasNotKilledOverlapsEverythingAfterItAndIsALeak() {
		section("a", "c0", "k", 10, 1, -1, Release.NONE);
		section("b", "c1", "k", 11, 20, 30, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isOne();
		assertThat(report.count(Violation.LEAK)).isOne();
	}

	@Test
	void sectionsWithTheSameTokenAreDuplicateTokens() {
		section("a", "c0", "k", 10, 1, 2, Release.RELEASED);
		section("b", "c1", "k", 10, 3, 4, Release.RELEASED);
		section("c", "c1", "other", 10, 5, 6, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.DUPLICATE_TOKEN)).isOne();
		assertThat(report.count(Violation.TOKEN_REGRESSION)).isZero();
	}

	@Test
	void storageSeeingOneTokenFromTwoHoldersIsADuplicateToken() {
		this.ops.add(op(1, "read", "k", "a", 10, true, 0, true, 0, 0));
		assertThat(check().count(Violation.DUPLICATE_TOKEN)).isOne();
	}

	@Test
	void laterSectionWithALowerTokenIsATokenRegressionUnlessItsHolderWasToldItLostTheLock() {
		section("a", "c0", "k", 20, 1, 2, Release.RELEASED);
		section("b", "c1", "k", 10, 3, 4, Release.RELEASED);
		assertThat(check().count(Violation.TOKEN_REGRESSION)).isOne();
		this.sections.clear();
		section("a", "c0", "k", 20, 1, 2, Release.RELEASED);
		section("b", "c1", "k", 10, 3, 4, Release.MISMATCH);
		assertThat(check().count(Violation.TOKEN_REGRESSION)).isZero();
	}

	@Test
	void sectionsEnteredAfterAnotherLeftWithALowerOrEqualTokenAreDecreasingTokensEvenWhenTold() {
		section("a", "c0", "k", 20, 1, 2, Release.RELEASED);
		// The same token again: a duplicate, and not an increase.
		section("b", "c1", "k", 20, 3, 4, Release.RELEASED);
		// A lower token, whose holder was told it lost the lock: no token regression.
		section("c", "c2", "k", 10, 5, 6, Release.MISMATCH);
		this.lost.add(new LostNotice("c2", "k", 10));
		section("d", "c0", "k", 30, 7, 8, Release.RELEASED);
		section("e", "c1", "other", 5, 9, 10, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.decreasingTokens()).isEqualTo(2);
		assertThat(report.count(Violation.DUPLICATE_TOKEN)).isOne();
		assertThat(report.count(Violation.TOKEN_REGRESSION)).isZero();
		assertThat(report.summary("s", 0, Set.of())).contains("duplicate-tokens=1", "decreasing-tokens=2");
		assertThat(report.details()).filteredOn((detail) -> detail.startsWith("decreasing-tokens"))
			.hasSize(2)
			.anySatisfy((detail) -> assertThat(detail).contains("b (token 20", "a (token 20"))
			.anySatisfy((detail) -> assertThat(detail).contains("c (token 10", "a (token 20"));
	}

	@Test
	void readerRecordedAsEnteringAfterAnotherReaderLeftIsNoTokenRegressionButAWriterAfterItIs() {
		// Readers share the lock: r1 took its read hold (token 10) before r2 took its own
		// (11), but r1's thread recorded its entry only after r2 had left. The order in
		// which readers record their sections is not the order of their grants.
		this.sections.add(new Section("r2", "c1", "k", 11, 1, 2, Release.RELEASED, "", 1, true));
		this.sections.add(new Section("r1", "c0", "k", 10, 3, 4, Release.RELEASED, "", 1, true));
		assertThat(check().count(Violation.TOKEN_REGRESSION)).isZero();
		// A writer excludes readers, so a reader after a writer, and a writer after a
		// reader, are still held to the order.
		section("w", "c2", "k", 9, 5, 6, Release.RELEASED);
		assertThat(check().count(Violation.TOKEN_REGRESSION)).isOne();
	}

	@Test
	void increasingTokensOfOverlappingSectionsAndSharedTokensOfReadersAreNotDecreasingTokens() {
		section("a", "c0", "k", 10, 1, 5, Release.RELEASED);
		section("b", "c1", "k", 11, 3, 8, Release.MISMATCH);
		this.sections.add(new Section("r1", "c2", "k", 11, 9, 10, Release.RELEASED, "", 1, true));
		this.sections.add(new Section("r2", "c0", "k", 11, 11, 12, Release.RELEASED, "", 1, true));
		section("c", "c2", "k", 12, 13, 14, Release.RELEASED);
		assertThat(check().decreasingTokens()).isZero();
	}

	@Test
	void fencedOperationAcceptedWithALowerTokenIsOutOfOrder() {
		this.ops.add(op(1, "read", "k", "b", 11, true, 0, false, 0, 0));
		this.ops.add(op(2, "write", "k", "b", 11, true, 0, false, 0, 1));
		this.ops.add(op(3, "write", "k", "a", 10, true, 1, false, 1, 2));
		CheckReport report = check();
		assertThat(report.count(Violation.OUT_OF_ORDER)).isOne();
		assertThat(report.details()).singleElement().asString().contains("token 10 after token 11");
	}

	@Test
	void storageOperationsAreCheckedInSequenceOrderWhateverTheirListOrder() {
		this.ops.add(op(2, "write", "k", "b", 11, true, 0, false, 0, 1));
		this.ops.add(op(1, "write", "k", "a", 10, true, 0, false, 0, 1));
		CheckReport report = check();
		assertThat(report.count(Violation.OUT_OF_ORDER)).isZero();
		assertThat(report.count(Violation.LOST_UPDATE)).isZero();
	}

	@Test
	void rejectedStaleWriteIsCountedAndIsNoViolation() {
		this.ops.add(op(1, "write", "k", "b", 11, true, 0, false, 0, 1));
		this.ops.add(op(2, "write", "k", "a", 10, false, 0, false, 0, 1));
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
		assertThat(report.staleRejected()).isOne();
	}

	@Test
	void fencedWriteOverwritingAnUpdateItDidNotReadIsALostUpdate() {
		this.ops.add(op(1, "write", "k", "a", 10, true, 5, false, 4, 5));
		assertThat(check().count(Violation.LOST_UPDATE)).isOne();
	}

	@Test
	void unfencedLostUpdateIsMeasuredNotAViolation() {
		this.ops.add(op(1, "plain-write", "k", "a", 10, true, 5, false, 4, 5));
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
		assertThat(report.unfencedLostUpdates()).isOne();
	}

	@Test
	void lockKeysLeftInRedisAreLeaks() {
		this.leftKeys.add("lock:k");
		CheckReport report = check();
		assertThat(report.count(Violation.LEAK)).isOne();
		assertThat(report.summary("s", 0, EnumSet.noneOf(Violation.class))).contains("leaked=1");
	}

	@Test
	void sectionNeverReleasedByAKilledClientIsNoLeak() {
		section("a", "c0", "k", 10, 1, -1, Release.NONE);
		this.killed.put("c0", 5L);
		assertThat(check().count(Violation.LEAK)).isZero();
	}

	@Test
	void attemptLongerThanItsWaitTimePlusToleranceIsALateWaiter() {
		attempt("c0", 500, 650);
		attempt("c0", 500, 590);
		CheckReport report = check();
		assertThat(report.count(Violation.LATE_WAITER)).isOne();
		assertThat(report.maxWaitOvershootMillis()).isEqualTo(150);
	}

	@Test
	void timeTheWaitersJvmDidNotRunIsNotCountedOnceEach() {
		attempt("c0", 500, 900);
		// 350ms of overlapping windows (100-400 and 300-450) inside the attempt, and one
		// of another client.
		this.frozen.add(new Window("c0", 100 * MS, 400 * MS));
		this.frozen.add(new Window("c0", 300 * MS, 450 * MS));
		this.frozen.add(new Window("c1", 0, 900 * MS));
		CheckReport report = check();
		assertThat(report.count(Violation.LATE_WAITER)).isZero();
		assertThat(report.maxWaitOvershootMillis()).isEqualTo(50);
		this.frozen.remove(0);
		assertThat(check().count(Violation.LATE_WAITER)).isOne();
	}

	@Test
	void kindsThatAreNotGuaranteedAreReportedButDoNotCount() {
		section("a", "c0", "k", 10, 1, 10, Release.RELEASED);
		section("b", "c1", "k", 11, 5, 12, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.of(Violation.OVERLAP))).isZero();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isOne();
		assertThat(report.summary("restart", 3, EnumSet.of(Violation.OVERLAP)))
			.startsWith("SCENARIO restart: ops=2 faults=3 violations=0 leaked=0 (overlaps=1 [not guaranteed], ");
	}

	@Test
	void multiKeyHoldOfAllItsKeysAtOnceIsCleanAndCounted() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20, "k1", 5);
		multiSection("g", "c0", "k0", 20, 1, 10);
		multiSection("g", "c0", "k1", 5, 2, 11);
		// A single-key holder of one of the keys, after it.
		section("a", "c1", "k1", 6, 12, 14, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).as(report.details().toString()).isZero();
		assertThat(report.multiHolds()).isOne();
		assertThat(report.sections()).isEqualTo(3);
		assertThat(report.summary("s", 0, Set.of())).contains("partial-multi-holds=0", "multi-holds=1");
	}

	@Test
	void multiKeyHolderOverlappingASingleKeyHolderOnOneOfItsKeysIsAnOverlap() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20, "k1", 5);
		multiSection("g", "c0", "k0", 20, 1, 10);
		multiSection("g", "c0", "k1", 5, 2, 11);
		section("a", "c1", "k1", 6, 8, 14, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isOne();
		assertThat(report.details()).singleElement().asString().contains("'k1'", "g:k1 (token 5");
	}

	@Test
	void eachKeyOfAMultiKeyHoldIsFencedByItsOwnToken() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20, "k1", 5);
		multiSection("g", "c0", "k0", 20, 0, 10);
		multiSection("g", "c0", "k1", 5, 0, 10);
		// k1's token is lower than k0's: only each key's own order counts.
		this.ops.add(op(1, "write", "k0", "g:k0", 20, true, 0, false, 0, 1));
		this.ops.add(op(2, "write", "k1", "g:k1", 5, true, 0, false, 0, 1));
		this.ops.add(op(3, "write", "k1", "a", 6, true, 1, false, 1, 2));
		assertThat(check().violations(EnumSet.noneOf(Violation.class))).isZero();
		// The multi-key holder's write on k1 accepted after a higher token of k1.
		this.ops.add(op(4, "write", "k1", "g:k1", 5, true, 2, false, 2, 3));
		CheckReport report = check();
		assertThat(report.count(Violation.OUT_OF_ORDER)).isOne();
		assertThat(report.details()).singleElement().asString().contains("'k1'", "token 5 after token 6");
	}

	@Test
	void multiKeyHandleWithoutAKeyItAskedForIsPartial() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20);
		multiSection("g", "c0", "k0", 20, 1, 10);
		CheckReport report = check();
		assertThat(report.count(Violation.MULTI_PARTIAL)).isOne();
		assertThat(report.details()).singleElement().asString().contains("asked for [k0, k1]", "held [k0]");
	}

	@Test
	void multiKeyHolderWithoutASectionOnOneOfItsKeysIsPartialUnlessItsClientWasKilled() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20, "k1", 5);
		multiSection("g", "c0", "k0", 20, 1, -1);
		CheckReport report = check();
		assertThat(report.count(Violation.MULTI_PARTIAL)).isOne();
		assertThat(report.details()).anySatisfy((detail) -> assertThat(detail).contains("no section on it"));
		// Killed between entering its first key and its second.
		this.killed.put("c0", 2L);
		assertThat(check().violations(EnumSet.noneOf(Violation.class))).isZero();
	}

	@Test
	void multiKeyHolderThatLeftOneKeyBeforeEnteringAnotherIsPartial() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20, "k1", 5);
		multiSection("g", "c0", "k0", 20, 1, 3);
		multiSection("g", "c0", "k1", 5, 4, 6);
		CheckReport report = check();
		assertThat(report.count(Violation.MULTI_PARTIAL)).isOne();
		assertThat(report.details()).singleElement()
			.asString()
			.contains("left 'k0' at #3 before it entered 'k1' at #4");
	}

	@Test
	void multiKeySectionWithAnotherTokenThanItsHandleGaveForTheKeyIsPartial() {
		multiHold("g", "c0", Set.of("k0", "k1"), "k0", 20, "k1", 5);
		multiSection("g", "c0", "k0", 20, 1, 10);
		multiSection("g", "c0", "k1", 20, 2, 11);
		CheckReport report = check();
		assertThat(report.count(Violation.MULTI_PARTIAL)).isOne();
		assertThat(report.details()).singleElement().asString().contains("held 'k1' with token 5");
	}

	@Test
	void permitHoldersWithinTheLimitAreClean() {
		// Three permits: three at once, the fourth after one left; tokens need not
		// follow the order of the sections, as holders share the key.
		permitSection("a", "c0", "p", 10, 1, 10, Release.RELEASED, 3);
		permitSection("b", "c1", "p", 12, 2, 6, Release.RELEASED, 3);
		permitSection("c", "c2", "p", 11, 3, 12, Release.RELEASED, 3);
		permitSection("d", "c2", "p", 13, 7, 13, Release.RELEASED, 3);
		permitSection("e", "c1", "p", 9, 14, 15, Release.RELEASED, 3);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).as(report.details().toString()).isZero();
		assertThat(report.permitSections()).isEqualTo(5);
		assertThat(report.maxPermitHolders()).isEqualTo(3);
		assertThat(report.excusedOverlaps()).isZero();
		assertThat(report.summary("s", 0, Set.of())).contains("over-permit-limit=0", "max-permit-holders=3");
	}

	@Test
	void moreHoldersThanPermitsNeverToldTheyLostThemIsAnExcess() {
		permitSection("a", "c0", "p", 10, 1, 10, Release.RELEASED, 2);
		permitSection("b", "c1", "p", 11, 2, 11, Release.RELEASED, 2);
		permitSection("c", "c2", "p", 12, 3, 12, Release.RELEASED, 2);
		CheckReport report = check();
		assertThat(report.count(Violation.PERMIT_EXCESS)).isOne();
		assertThat(report.count(Violation.OVERLAP)).isZero();
		assertThat(report.maxPermitHolders()).isEqualTo(3);
		assertThat(report.details()).singleElement().asString().contains("c entered at #3 as one of 3 holders of 2");
	}

	@Test
	void holderWhoseReleaseWasUnconfirmedStillCountsToTheLimit() {
		permitSection("a", "c0", "p", 10, 1, 10, Release.UNCONFIRMED, 2);
		permitSection("b", "c1", "p", 11, 2, 11, Release.RELEASED, 2);
		permitSection("c", "c2", "p", 12, 3, 12, Release.RELEASED, 2);
		assertThat(check().count(Violation.PERMIT_EXCESS)).isOne();
	}

	@Test
	void excessExplainedByAHolderWithALostNoticeIsExcused() {
		// a was paused past its ttl: its permit expired and went to c meanwhile.
		permitSection("a", "c0", "p", 10, 1, 10, Release.MISMATCH, 2);
		permitSection("b", "c1", "p", 11, 2, 11, Release.RELEASED, 2);
		permitSection("c", "c2", "p", 12, 3, 12, Release.RELEASED, 2);
		this.lost.add(new LostNotice("c0", "p", 10));
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
		assertThat(report.excusedOverlaps()).isOne();
		assertThat(report.toldAtReleaseOverlaps()).isZero();
	}

	@Test
	void excessExplainedOnlyByAHolderToldAtItsReleaseIsCountedApart() {
		permitSection("a", "c0", "p", 10, 1, 10, Release.MISMATCH, 2);
		permitSection("b", "c1", "p", 11, 2, 11, Release.RELEASED, 2);
		permitSection("c", "c2", "p", 12, 3, 12, Release.RELEASED, 2);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
		assertThat(report.excusedOverlaps()).isZero();
		assertThat(report.toldAtReleaseOverlaps()).isOne();
	}

	@Test
	void excessIsNotExcusedByOneLostHolderWhenTwoAreOverTheLimit() {
		permitSection("a", "c0", "p", 10, 1, 10, Release.MISMATCH, 2);
		permitSection("b", "c1", "p", 11, 2, 11, Release.RELEASED, 2);
		permitSection("c", "c2", "p", 12, 3, 12, Release.RELEASED, 2);
		permitSection("d", "c2", "p", 13, 4, 13, Release.RELEASED, 2);
		this.lost.add(new LostNotice("c0", "p", 10));
		CheckReport report = check();
		// c's entry is excused by a's loss; d's is one too many even without a.
		assertThat(report.excusedOverlaps()).isOne();
		assertThat(report.count(Violation.PERMIT_EXCESS)).isOne();
	}

	@Test
	void killedPermitHolderStopsCountingAtTheKill() {
		permitSection("a", "c0", "p", 10, 1, -1, Release.NONE, 2);
		permitSection("b", "c1", "p", 11, 2, 11, Release.RELEASED, 2);
		permitSection("c", "c2", "p", 12, 6, 12, Release.RELEASED, 2);
		this.killed.put("c0", 5L);
		assertThat(check().violations(EnumSet.noneOf(Violation.class))).isZero();
		this.killed.put("c0", 7L);
		assertThat(check().count(Violation.PERMIT_EXCESS)).isOne();
	}

	@Test
	void permitSectionsWithTheSameTokenAreDuplicateTokens() {
		permitSection("a", "c0", "p", 10, 1, 10, Release.RELEASED, 3);
		permitSection("b", "c1", "p", 10, 2, 11, Release.RELEASED, 3);
		CheckReport report = check();
		assertThat(report.count(Violation.DUPLICATE_TOKEN)).isOne();
		assertThat(report.count(Violation.PERMIT_EXCESS)).isZero();
	}

	@Test
	void permitHolderNeverGivingBackItsPermitIsALeak() {
		permitSection("a", "c0", "p", 10, 1, 10, Release.NONE, 3);
		assertThat(check().count(Violation.LEAK)).isOne();
	}

	@Test
	void readersSharingTheKeyAndTheirWritersTokenAreClean() {
		section("w", "c0", "k", 10, 1, 3, Release.RELEASED);
		readSection("r1", "c1", "k", 10, 4, 10);
		readSection("r2", "c2", "k", 10, 5, 12);
		section("w2", "c0", "k", 11, 13, 15, Release.RELEASED);
		readSection("r3", "c1", "k", 11, 16, 17);
		CheckReport report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).as(report.details().toString()).isZero();
		assertThat(report.excusedOverlaps()).isZero();
	}

	@Test
	void writerEnteringWhileAReaderHoldsIsAnOverlapOfTheStaleReader() {
		readSection("r", "c0", "k", 10, 1, 10);
		section("w", "c1", "k", 11, 5, 12, Release.RELEASED);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isOne();
		assertThat(report.details()).singleElement()
			.asString()
			.contains("r (read, token 10", "the stale holder r was never told");
	}

	@Test
	void readerEnteringWhileTheWriterOfItsTokenHoldsIsAnOverlapOfTheStaleWriter() {
		section("w", "c0", "k", 10, 1, 10, Release.RELEASED);
		readSection("r", "c1", "k", 10, 5, 8);
		CheckReport report = check();
		assertThat(report.count(Violation.OVERLAP)).isOne();
		assertThat(report.details()).singleElement().asString().contains("the stale holder w was never told");
		// The writer was paused past its ttl and told: then the reader came in rightly.
		this.lost.add(new LostNotice("c0", "k", 10));
		report = check();
		assertThat(report.violations(EnumSet.noneOf(Violation.class))).isZero();
		assertThat(report.excusedOverlaps()).isOne();
	}

	@Test
	void readerAfterAWriterWithAnOlderTokenThanThatWritersIsATokenRegression() {
		section("w", "c0", "k", 11, 1, 2, Release.RELEASED);
		readSection("r", "c1", "k", 10, 3, 4);
		CheckReport report = check();
		assertThat(report.count(Violation.TOKEN_REGRESSION)).isOne();
		assertThat(report.count(Violation.DUPLICATE_TOKEN)).isZero();
	}

	private CheckReport check() {
		return this.checker.check(new History(this.sections, this.ops, this.attempts, this.lost, this.killed,
				this.frozen, this.leftKeys, this.multiHolds));
	}

	/**
	 * A multi-key acquisition whose handle held the given keys with the given tokens,
	 * alternating.
	 */
	private void multiHold(String group, String client, Set<String> asked, Object... keysAndTokens) {
		Map<String, Long> tokens = new LinkedHashMap<>();
		for (int i = 0; i + 1 < keysAndTokens.length; i += 2) {
			tokens.put((String) keysAndTokens[i], ((Number) keysAndTokens[i + 1]).longValue());
		}
		this.multiHolds.add(new MultiHold(group, client, asked, tokens));
	}

	/**
	 * The section of one key of a multi-key acquisition, released.
	 */
	private void multiSection(String group, String client, String key, long token, long enter, long exit) {
		this.sections.add(new Section(group + ":" + key, client, key, token, enter, exit, Release.RELEASED, group, 1));
	}

	private void readSection(String holder, String client, String key, long token, long enter, long exit) {
		this.sections.add(new Section(holder, client, key, token, enter, exit, Release.RELEASED, "", 1, true));
	}

	private void permitSection(String holder, String client, String key, long token, long enter, long exit,
			Release release, int permits) {
		this.sections.add(new Section(holder, client, key, token, enter, exit, release, "", permits));
	}

	private void section(String holder, String client, String key, long token, long enter, long exit, Release release) {
		this.sections.add(new Section(holder, client, key, token, enter, exit, release));
	}

	/**
	 * A released section with its fenced read and write at enter+1 and enter+2.
	 */
	private void fencedSection(String holder, String client, String key, long token, long enter) {
		section(holder, client, key, token, enter, enter + 3, Release.RELEASED);
		long counter = this.ops.stream().filter((op) -> op.key().equals(key) && "write".equals(op.op())).count();
		this.ops.add(op(enter + 1, "read", key, holder, token, true, counter, false, 0, 0));
		this.ops.add(op(enter + 2, "write", key, holder, token, true, counter, false, counter, counter + 1));
	}

	private void attempt(String client, long waitMillis, long tookMillis) {
		this.attempts.add(new Attempt(client, "k", "template", waitMillis * MS, 0, tookMillis * MS, "busy"));
	}

	private static StorageOp op(long seq, String op, String key, String holder, long token, boolean accepted,
			long value, boolean duplicate, long expected, long written) {
		return new StorageOp(seq, seq * 1000, op, key, holder, token, accepted, value, duplicate, expected, written);
	}

}
