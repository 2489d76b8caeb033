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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.distlock.faults.history.History.Attempt;
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
 * a lower token, by a holder never told its lock was lost.</li>
 * <li>{@link Violation#LOST_UPDATE}: an accepted fenced write that overwrote an update
 * made since its holder read the counter.</li>
 * <li>{@link Violation#LEAK}: lock keys left in Redis, and sections of clients that were
 * not killed whose lock was never given back.</li>
 * <li>{@link Violation#LATE_WAITER}: an attempt that took longer than its wait time plus
 * the tolerance, not counting the time its JVM did not run (frozen by the test, or
 * stalled as the client measured).</li>
 * </ul>
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
				String other = holderOfToken.putIfAbsent(section.token(), section.holder());
				if (other != null && this.duplicates.add(section.key() + "#" + section.token())) {
					violation(Violation.DUPLICATE_TOKEN, "token " + section.token() + " of '" + section.key()
							+ "' handed to both " + other + " and " + section.holder());
				}
			}
			Set<Section> overlapped = new HashSet<>();
			for (int i = 0; i < sections.size(); i++) {
				Section first = sections.get(i);
				long end = end(first);
				for (int j = i + 1; j < sections.size() && sections.get(j).enterSeq() < end; j++) {
					overlap(first, sections.get(j), overlapped);
				}
			}
			for (Section later : sections) {
				if (declaredLost(later)) {
					continue;
				}
				for (Section earlier : sections) {
					if (earlier != later && end(earlier) < later.enterSeq() && earlier.token() > later.token()) {
						violation(Violation.TOKEN_REGRESSION,
								"'" + later.key() + "': " + later.holder() + " entered at #" + later.enterSeq()
										+ " with token " + later.token() + ", after " + earlier.holder()
										+ " had left at #" + end(earlier) + " with the higher token "
										+ earlier.token());
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
			Section stale = (second.token() < first.token()) ? second : first;
			if (!overlapped.add(stale)) {
				return;
			}
			if (first.token() != second.token() && noticed(stale)) {
				this.excusedOverlaps++;
				return;
			}
			if (first.token() != second.token() && declaredLost(stale)) {
				this.toldAtReleaseOverlaps++;
				return;
			}
			violation(Violation.OVERLAP,
					"'" + first.key() + "': " + describe(first) + " overlaps " + describe(second)
							+ ((first.token() == second.token()) ? " with the same token"
									: "; the stale holder " + stale.holder() + " was never told it lost the lock"));
		}

		private String describe(Section section) {
			long end = end(section);
			return section.holder() + " (token " + section.token() + ", #" + section.enterSeq() + "-"
					+ ((end != Long.MAX_VALUE) ? "#" + end : "open") + ")";
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
					lostSections, TimeUnit.NANOSECONDS.toMillis(this.maxOvershootNanos), this.details);
		}

	}

}
