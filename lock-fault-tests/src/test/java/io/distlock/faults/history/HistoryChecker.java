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
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.distlock.faults.history.History.Attempt;
import io.distlock.faults.history.History.MultiHold;
import io.distlock.faults.history.History.Release;
import io.distlock.faults.history.History.Section;
import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.History.Window;

/**
 * Reads a whole {@link History} and reports the violations in it. Pure logic: it has no
 * clock of its own and talks to nothing.
 *
 * <p>
 * Critical sections are compared in the global order of the storage, the one server that
 * is never faulted: a holder records its entry there after it got the lock and its exit
 * before it releases it, so two sections whose [entry, exit] ranges overlap in that order
 * were really held at the same time. A killed client's open sections end where the test
 * recorded the kill, right after the process died.
 *
 * <ul>
 * <li>{@link Violation#OVERLAP}: overlapping sections on one key, where the stale holder
 * (lower fencing token) was never told its lock was lost; counted once per stale section.
 * When it was told by a lost notice, the overlap is counted as excused: that is what a
 * pause past the ttl or a Redis restart without persistence does, and fencing is for.
 * When it was told only by its release finding the lock gone, after the overlap, it is
 * counted apart as told at release: the holder worked to the end believing it held the
 * lock, and only fencing kept its writes out.</li>
 * <li>{@link Violation#OUT_OF_ORDER}: a fenced storage operation accepted with a lower
 * token than one already accepted for its key.</li>
 * <li>{@link Violation#DUPLICATE_TOKEN}: two acquisitions of one key with one token.</li>
 * <li>{@link Violation#TOKEN_REGRESSION}: a section entered after another one ended, with
 * a lower token, by a holder never told its lock was lost; two readers' sections are not
 * compared, since a reader may record its entry after a later reader left.</li>
 * <li>{@link Violation#LOST_UPDATE}: an accepted fenced write that overwrote an update
 * made since its holder read the counter.</li>
 * <li>{@link Violation#LEAK}: lock keys left in Redis, and sections of clients that were
 * not killed whose lock was never given back.</li>
 * <li>{@link Violation#LATE_WAITER}: an attempt that took longer than its wait time plus
 * the tolerance, not counting the time its JVM did not run (frozen by the test, or
 * stalled as the client measured).</li>
 * <li>{@link Violation#PERMIT_EXCESS}: more holders in their sections on a key at once
 * than its permits, counting only holders never told their permit was lost (see
 * below).</li>
 * <li>{@link Violation#MULTI_PARTIAL}: a multi-key acquisition that did not hold all its
 * keys at once (see below).</li>
 * </ul>
 *
 * <h2>Multi-key acquisitions</h2>
 * <p>
 * Each key of a multi-key acquisition is its own {@link Section} (of the acquisition's
 * {@linkplain Section#group() group}), with that key's own fencing token and its own
 * fenced reads and writes, so every key is checked exactly as an exclusive lock is: no
 * overlap with another holder of the key unless the stale one was told, fenced writes
 * accepted in increasing token order, no duplicate tokens, no token regression, no lost
 * update. Multi-key and single-key holders of a key are checked together: they must
 * exclude each other. In addition, the acquisition must have held all its keys at once:
 * its handle held exactly the keys asked for, every key has a section with the handle's
 * token for it, and every section began before any ended. A client killed part way
 * through entering its keys may leave some without a section; that is not counted.
 *
 * <h2>Read and write locks</h2>
 * <p>
 * A read hold's section ({@link Section#read()}) is checked with the write and exclusive
 * sections of its key, except that readers may overlap each other, and share their token
 * (the latest writer's) with each other and with that writer, which is therefore no
 * duplicate. A reader and a writer that overlap are an overlap as between two writers:
 * the stale one is the one with the lower token, and on equal tokens the writer (a reader
 * only gets a writer's token once that writer holds the lock, so it can only have come in
 * after the writer's lease ran out); it is excused or counted apart by the same rules. A
 * reader that enters after a writer left must carry at least that writer's token (a token
 * regression otherwise).
 *
 * <h2>Permits</h2>
 * <p>
 * Sections on one of a key's permits ({@link Section#isPermit()}) are exempt from the
 * exclusive checks (overlap, token regression): sharing the key is their point. Their
 * tokens must still be unique. The store promises that at no instant more than the limit
 * of unexpired permit leases exist; a holder's section lies within its lease unless the
 * lease ran out while the holder still worked (a JVM paused past the ttl, renewals held
 * back), and then the library tells the holder, at the latest when its renewer runs again
 * (a lost notice) or when its release finds the permit gone (a mismatch). The store's
 * expiry itself is not visible in the history, so the checker applies the rules it
 * applies to overlaps of exclusive locks: at every entry, in the storage's order, the
 * open sections of the key are counted; when there are more than the entering holder's
 * limit,
 * <ul>
 * <li>holders with a lost notice are left out: if the rest is within the limit, the
 * excess is excused, as a pause past the ttl explains it (counted with the excused
 * overlaps);</li>
 * <li>else holders told only at release are left out too: if the rest is within the
 * limit, it is counted apart, with the overlaps told at release (the holder worked to the
 * end believing it held a permit);</li>
 * <li>else it is a {@link Violation#PERMIT_EXCESS}: more holders than the limit that were
 * never told their permit was lost, which a sound store never lets happen, whatever the
 * faults.</li>
 * </ul>
 * What is not guaranteed, hence not checked: that a holder told lost had really lost its
 * permit at the instant of the excess rather than later (the history only shows that it
 * was lost at some point of its section); a section whose release was unconfirmed (an
 * error) counts as held to its exit. A killed client's open sections end at the kill,
 * although its permits stay taken in the store until their ttl: the count is then lower
 * than the store's, so it can find no excess that is not one, but would miss a store that
 * forgot a dead holder's lease before its ttl.
 */
public final class HistoryChecker {

	private static final int MAX_DETAILS = 20;

	private final long lateToleranceNanos;

	/**
	 * Create a checker.
	 * @param lateTolerance how much longer than its wait time an attempt may take: one
	 * bounded call to Redis (the command timeout) plus scheduling slack
	 */
	public HistoryChecker(Duration lateTolerance) {
		this.lateToleranceNanos = lateTolerance.toNanos();
	}

	/**
	 * Check the history.
	 * @param history what happened
	 * @return the violations and measured figures
	 */
	public CheckReport check(History history) {
		Run run = new Run(history);
		run.sections();
		run.permits();
		run.multiHolds();
		run.storage();
		run.leaks();
		run.waiters();
		return run.report();
	}

	private final class Run {

		private final History history;

		private final Set<String> lost = new HashSet<>();

		private final Map<Violation, Integer> violations = new EnumMap<>(Violation.class);

		private final List<String> details = new ArrayList<>();

		private int excusedOverlaps;

		private int toldAtReleaseOverlaps;

		private int staleRejected;

		private int unfencedLostUpdates;

		private long maxOvershootNanos;

		private int maxPermitHolders;

		private int decreasingTokens;

		private final Set<String> duplicates = new HashSet<>();

		Run(History history) {
			this.history = history;
			history.lostNotices().forEach((notice) -> this.lost.add(notice.key() + "#" + notice.token()));
		}

		boolean declaredLost(Section section) {
			return section.release() == Release.MISMATCH || noticed(section);
		}

		boolean noticed(Section section) {
			return this.lost.contains(section.key() + "#" + section.token());
		}

		long end(Section section) {
			if (section.exited()) {
				return section.exitSeq();
			}
			Long killed = this.history.killed().get(section.client());
			return (killed != null) ? killed : Long.MAX_VALUE;
		}

		void sections() {
			Map<String, List<Section>> byKey = new LinkedHashMap<>();
			for (Section section : this.history.sections()) {
				byKey.computeIfAbsent(section.key(), (key) -> new ArrayList<>()).add(section);
			}
			byKey.values().forEach(this::sectionsOfKey);
		}

		private void sectionsOfKey(List<Section> sections) {
			sections.sort(Comparator.comparingLong(Section::enterSeq));
			Map<Long, String> holderOfToken = new HashMap<>();
			for (Section section : sections) {
				if (section.read()) {
					// Readers share the latest writer's token.
					continue;
				}
				String other = holderOfToken.putIfAbsent(section.token(), section.holder());
				if (other != null && this.duplicates.add(section.key() + "#" + section.token())) {
					violation(Violation.DUPLICATE_TOKEN, "token " + section.token() + " of '" + section.key()
							+ "' handed to both " + other + " and " + section.holder());
				}
			}
			// Permit holders share the key by design; their limit is checked apart.
			List<Section> exclusive = sections.stream().filter((section) -> !section.isPermit()).toList();
			Set<Section> overlapped = new HashSet<>();
			for (int i = 0; i < exclusive.size(); i++) {
				Section first = exclusive.get(i);
				long end = end(first);
				for (int j = i + 1; j < exclusive.size() && exclusive.get(j).enterSeq() < end; j++) {
					overlap(first, exclusive.get(j), overlapped);
				}
			}
			for (Section later : exclusive) {
				if (declaredLost(later)) {
					continue;
				}
				for (Section earlier : exclusive) {
					// Two readers share the lock: the order in which they record their
					// sections is not the order of their grants.
					boolean readers = earlier.read() && later.read();
					if (earlier != later && !readers && end(earlier) < later.enterSeq()
							&& earlier.token() > later.token()) {
						violation(Violation.TOKEN_REGRESSION,
								"'" + later.key() + "': " + later.holder() + " entered at #" + later.enterSeq()
										+ " with token " + later.token() + ", after " + earlier.holder()
										+ " had left at #" + end(earlier) + " with the higher token "
										+ earlier.token());
						break;
					}
				}
			}
			decreasingTokens(exclusive);
		}

		/**
		 * Count the writers entered after another writer of their key had left, with a
		 * token not greater than that one's, excusing nothing. Readers share the token of
		 * the writer before them, so they are left out.
		 */
		private void decreasingTokens(List<Section> exclusive) {
			for (Section later : exclusive) {
				if (later.read()) {
					continue;
				}
				for (Section earlier : exclusive) {
					if (earlier != later && !earlier.read() && end(earlier) < later.enterSeq()
							&& earlier.token() >= later.token()) {
						this.decreasingTokens++;
						if (this.details.size() < MAX_DETAILS) {
							this.details.add("decreasing-tokens (measured): '" + later.key() + "': " + describe(later)
									+ " entered after " + describe(earlier) + " had left");
						}
						break;
					}
				}
			}
		}

		/**
		 * Count an overlap once per stale section, however many later sections overlapped
		 * it.
		 */
		private void overlap(Section first, Section second, Set<Section> overlapped) {
			if (first.read() && second.read()) {
				return;
			}
			// A reader shares the token of the writer it came after: one of the two is
			// stale all the same, the writer.
			boolean readerAndWriter = first.read() != second.read();
			Section stale;
			if (first.token() == second.token() && readerAndWriter) {
				stale = first.read() ? second : first;
			}
			else {
				stale = (second.token() < first.token()) ? second : first;
			}
			if (!overlapped.add(stale)) {
				return;
			}
			boolean oneIsStale = first.token() != second.token() || readerAndWriter;
			if (oneIsStale && noticed(stale)) {
				this.excusedOverlaps++;
				return;
			}
			if (oneIsStale && declaredLost(stale)) {
				this.toldAtReleaseOverlaps++;
				return;
			}
			violation(Violation.OVERLAP,
					"'" + first.key() + "': " + describe(first) + " overlaps " + describe(second)
							+ ((!oneIsStale) ? " with the same token"
									: "; the stale holder " + stale.holder() + " was never told it lost the lock"));
		}

		void permits() {
			Map<String, List<Section>> byKey = new LinkedHashMap<>();
			for (Section section : this.history.sections()) {
				if (section.isPermit()) {
					byKey.computeIfAbsent(section.key(), (key) -> new ArrayList<>()).add(section);
				}
			}
			byKey.values().forEach(this::permitsOfKey);
		}

		/**
		 * Sweep the entries and ends of one key's permit sections in the storage's order,
		 * and judge every entry that leaves more sections open than the entrant's limit.
		 */
		private void permitsOfKey(List<Section> sections) {
			// An entry is at its enter sequence number, an end at its exit or the kill:
			// {sequence, 1 for an entry or 0 for an end, index}. Sequence numbers are
			// unique, but killed sections end together; ends first at a tie.
			List<long[]> events = new ArrayList<>();
			for (int i = 0; i < sections.size(); i++) {
				events.add(new long[] { sections.get(i).enterSeq(), 1, i });
				events.add(new long[] { end(sections.get(i)), 0, i });
			}
			events.sort(Comparator.<long[]>comparingLong((event) -> event[0]).thenComparingLong((event) -> event[1]));
			Set<Section> open = new LinkedHashSet<>();
			for (long[] event : events) {
				Section section = sections.get((int) event[2]);
				if (event[1] == 0) {
					open.remove(section);
					continue;
				}
				open.add(section);
				this.maxPermitHolders = Math.max(this.maxPermitHolders, open.size());
				int limit = section.permits();
				if (open.size() <= limit) {
					continue;
				}
				long neverNoticed = open.stream().filter((held) -> !noticed(held)).count();
				long neverTold = open.stream().filter((held) -> !declaredLost(held)).count();
				if (neverNoticed <= limit) {
					this.excusedOverlaps++;
				}
				else if (neverTold <= limit) {
					this.toldAtReleaseOverlaps++;
				}
				else {
					violation(Violation.PERMIT_EXCESS,
							"'" + section.key() + "': " + section.holder() + " entered at #" + section.enterSeq()
									+ " as one of " + open.size() + " holders of " + limit + " permits, " + neverTold
									+ " never told they lost theirs: " + open.stream().map(this::describe).toList());
				}
			}
		}

		void multiHolds() {
			Map<String, List<Section>> byGroup = new HashMap<>();
			for (Section section : this.history.sections()) {
				if (!section.group().isEmpty()) {
					byGroup.computeIfAbsent(section.group(), (group) -> new ArrayList<>()).add(section);
				}
			}
			for (MultiHold hold : this.history.multiHolds()) {
				multiHold(hold, byGroup.getOrDefault(hold.group(), List.of()));
			}
		}

		private void multiHold(MultiHold hold, List<Section> sections) {
			if (!hold.tokens().keySet().equals(hold.keys())) {
				violation(Violation.MULTI_PARTIAL, hold.group() + " asked for " + new TreeSet<>(hold.keys())
						+ " but its handle held " + new TreeSet<>(hold.tokens().keySet()));
				return;
			}
			boolean killed = this.history.killed().containsKey(hold.client());
			for (String key : new TreeSet<>(hold.keys())) {
				List<Section> ofKey = sections.stream().filter((section) -> section.key().equals(key)).toList();
				if (ofKey.isEmpty()) {
					if (!killed) {
						violation(Violation.MULTI_PARTIAL,
								hold.group() + " held '" + key + "' but recorded no section on it");
					}
					continue;
				}
				long token = hold.tokens().get(key);
				if (ofKey.size() > 1 || ofKey.get(0).token() != token) {
					violation(Violation.MULTI_PARTIAL, hold.group() + " held '" + key + "' with token " + token
							+ " but recorded " + ofKey.stream().map(this::describe).toList() + " on it");
				}
			}
			if (sections.isEmpty()) {
				return;
			}
			Section lastIn = sections.stream().max(Comparator.comparingLong(Section::enterSeq)).orElseThrow();
			Section firstOut = sections.stream().min(Comparator.comparingLong(this::end)).orElseThrow();
			if (end(firstOut) < lastIn.enterSeq()) {
				violation(Violation.MULTI_PARTIAL, hold.group() + " left '" + firstOut.key() + "' at #" + end(firstOut)
						+ " before it entered '" + lastIn.key() + "' at #" + lastIn.enterSeq());
			}
		}

		private String describe(Section section) {
			long end = end(section);
			return section.holder() + (section.read() ? " (read, token " : " (token ") + section.token() + ", #"
					+ section.enterSeq() + "-" + ((end != Long.MAX_VALUE) ? "#" + end : "open") + ")";
		}

		void storage() {
			Map<String, Long> highest = new HashMap<>();
			List<StorageOp> ops = new ArrayList<>(this.history.storageOps());
			ops.sort(Comparator.comparingLong(StorageOp::seq));
			for (StorageOp op : ops) {
				if (op.fenced()) {
					fenced(op, highest);
				}
				else if ("plain-write".equals(op.op()) && op.value() != op.expected()) {
					this.unfencedLostUpdates++;
				}
			}
		}

		private void fenced(StorageOp op, Map<String, Long> highest) {
			if (!op.accepted()) {
				this.staleRejected++;
				return;
			}
			long max = highest.getOrDefault(op.key(), Long.MIN_VALUE);
			if (op.token() < max) {
				violation(Violation.OUT_OF_ORDER, "'" + op.key() + "': " + op.op() + " #" + op.seq() + " by "
						+ op.holder() + " accepted with token " + op.token() + " after token " + max);
			}
			highest.put(op.key(), Math.max(max, op.token()));
			if (op.duplicateToken() && this.duplicates.add(op.key() + "#" + op.token())) {
				violation(Violation.DUPLICATE_TOKEN, "'" + op.key() + "': storage saw token " + op.token() + " from "
						+ op.holder() + " after another holder");
			}
			if ("write".equals(op.op()) && op.value() != op.expected()) {
				violation(Violation.LOST_UPDATE,
						"'" + op.key() + "': write #" + op.seq() + " by " + op.holder() + " (token " + op.token()
								+ ") set " + op.written() + " from a read of " + op.expected()
								+ ", overwriting the value " + op.value());
			}
		}

		void leaks() {
			for (String key : this.history.leftLockKeys()) {
				violation(Violation.LEAK, "lock key '" + key + "' still in Redis after the run");
			}
			for (Section section : this.history.sections()) {
				if (section.release() == Release.NONE && !this.history.killed().containsKey(section.client())) {
					violation(Violation.LEAK, section.holder() + " never gave back its lock on '" + section.key()
							+ "' (token " + section.token() + ")");
				}
			}
		}

		void waiters() {
			for (Attempt attempt : this.history.attempts()) {
				long overshoot = attempt.waitedNanos() - attempt.waitNanos()
						- frozenNanos(attempt.client(), attempt.startNanos(), attempt.endNanos());
				this.maxOvershootNanos = Math.max(this.maxOvershootNanos, overshoot);
				if (overshoot > HistoryChecker.this.lateToleranceNanos) {
					violation(Violation.LATE_WAITER,
							attempt.client() + " waited " + TimeUnit.NANOSECONDS.toMillis(attempt.waitedNanos())
									+ "ms for '" + attempt.key() + "' (" + attempt.mode() + ", " + attempt.outcome()
									+ ") with a wait time of " + TimeUnit.NANOSECONDS.toMillis(attempt.waitNanos())
									+ "ms, " + TimeUnit.NANOSECONDS.toMillis(overshoot)
									+ "ms more while its JVM was running");
				}
			}
		}

		/**
		 * Return how long the client's JVM did not run between start and end: the union
		 * of its frozen windows, clipped to that range.
		 */
		private long frozenNanos(String client, long start, long end) {
			List<long[]> clipped = new ArrayList<>();
			for (Window window : this.history.frozen()) {
				if (window.client().equals(client) && window.startNanos() < end && start < window.endNanos()) {
					clipped.add(new long[] { Math.max(start, window.startNanos()), Math.min(end, window.endNanos()) });
				}
			}
			clipped.sort(Comparator.comparingLong((range) -> range[0]));
			long total = 0;
			long covered = start;
			for (long[] range : clipped) {
				long from = Math.max(range[0], covered);
				if (range[1] > from) {
					total += range[1] - from;
					covered = range[1];
				}
			}
			return total;
		}

		private void violation(Violation violation, String detail) {
			this.violations.merge(violation, 1, Integer::sum);
			if (this.details.size() < MAX_DETAILS) {
				this.details.add(violation.label() + ": " + detail);
			}
		}

		CheckReport report() {
			List<Attempt> attempts = this.history.attempts();
			int busy = (int) attempts.stream().filter((attempt) -> "busy".equals(attempt.outcome())).count();
			int errors = (int) attempts.stream().filter((attempt) -> "error".equals(attempt.outcome())).count();
			int lostSections = (int) this.history.sections().stream().filter(this::declaredLost).count();
			return new CheckReport(this.history.sections().size(), attempts.size(), busy, errors, this.violations,
					this.excusedOverlaps, this.toldAtReleaseOverlaps, this.staleRejected, this.unfencedLostUpdates,
					lostSections, TimeUnit.NANOSECONDS.toMillis(this.maxOvershootNanos), this.details,
					this.history.multiHolds().size(),
					(int) this.history.sections().stream().filter(Section::isPermit).count(), this.maxPermitHolders,
					this.decreasingTokens);
		}

	}

}
