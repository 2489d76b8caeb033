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

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the {@link HistoryChecker} found in a history: the violations of each kind, with
 * the first few described, and figures that are measured but not violations.
 *
 * @param sections how many critical sections were entered (the operations)
 * @param attempts how many acquisition attempts ended
 * @param busy how many attempts found the lock busy for their whole wait time
 * @param errors how many attempts failed with an error (Redis unreachable or too slow)
 * @param violations the count of each kind of violation
 * @param excusedOverlaps sections overlapped by a later holder of their key, whose holder
 * got a lost notice: what a pause past the ttl or a lost lock key does, and fencing is
 * for; also entries into a key's permits over its limit that are within it once holders
 * with a lost notice are left out
 * @param toldAtReleaseOverlaps sections overlapped by a later holder of their key, whose
 * holder got no lost notice and learnt of the loss only when its release found the lock
 * gone, after the damage; also entries into a key's permits over its limit that are
 * within it only once holders told at release are left out too
 * @param staleRejected fenced storage operations rejected for a stale token
 * @param unfencedLostUpdates increments of the unfenced counter that were lost: what
 * mutual exclusion alone, without fencing, would have let through
 * @param lostSections sections whose holder was told that its lock was lost (a lost
 * notice or a release that found the lock gone)
 * @param maxWaitOvershootMillis the longest time an attempt took beyond its wait time,
 * not counting the time its JVM did not run
 * @param details a description of the first violations found
 * @param multiHolds how many multi-key acquisitions held their keys (each also counts one
 * section per key in {@code sections})
 * @param permitSections how many sections held one of a key's permits
 * @param maxPermitHolders the most permit holders seen in their sections on one key at
 * once
 * @param decreasingTokens exclusive and write sections entered after another section of
 * their key had ended, with a token lower than or equal to that one's, whether or not
 * their holder was told it lost the lock: a token that did not increase in grant order.
 * Unlike {@link Violation#TOKEN_REGRESSION} it excuses nothing, so it is measured, not a
 * violation: a holder frozen between its grant and its entry for longer than its lease
 * enters late with a token granted early. Scenarios whose clients are not frozen assert
 * it is zero
 */
public record CheckReport(int sections, int attempts, int busy, int errors, Map<Violation, Integer> violations,
		int excusedOverlaps, int toldAtReleaseOverlaps, int staleRejected, int unfencedLostUpdates, int lostSections,
		long maxWaitOvershootMillis, List<String> details, int multiHolds, int permitSections, int maxPermitHolders,
		int decreasingTokens) {

	/**
	 * Create a report, copying the collections.
	 */
	public CheckReport {
		Map<Violation, Integer> counts = new EnumMap<>(Violation.class);
		for (Violation violation : Violation.values()) {
			counts.put(violation, violations.getOrDefault(violation, 0));
		}
		violations = Map.copyOf(counts);
		details = List.copyOf(details);
	}

	/**
	 * Return how many violations of the given kind were found.
	 * @param violation the kind
	 * @return the count
	 */
	public int count(Violation violation) {
		return this.violations.get(violation);
	}

	/**
	 * Return how many violations were found, leaving out the kinds that the scenario's
	 * mode does not guarantee against.
	 * @param notGuaranteed the kinds that are measured, not failed on
	 * @return the number of violations that fail the scenario
	 */
	public int violations(Set<Violation> notGuaranteed) {
		int total = 0;
		for (Violation violation : Violation.values()) {
			if (!notGuaranteed.contains(violation)) {
				total += count(violation);
			}
		}
		return total;
	}

	/**
	 * Return the one-line summary of a scenario.
	 * @param scenario the scenario name
	 * @param faults how many faults were injected
	 * @param notGuaranteed the kinds that are measured, not failed on
	 * @return the summary line
	 */
	public String summary(String scenario, int faults, Set<Violation> notGuaranteed) {
		String checked = List
			.of(Violation.OVERLAP, Violation.OUT_OF_ORDER, Violation.LOST_UPDATE, Violation.LATE_WAITER,
					Violation.TOKEN_REGRESSION, Violation.DUPLICATE_TOKEN, Violation.PERMIT_EXCESS,
					Violation.MULTI_PARTIAL)
			.stream()
			.map((violation) -> violation.label() + "=" + count(violation)
					+ (notGuaranteed.contains(violation) ? " [not guaranteed]" : ""))
			.collect(Collectors.joining(", "));
		return "SCENARIO " + scenario + ": ops=" + this.sections + " faults=" + faults + " violations="
				+ violations(notGuaranteed) + " leaked=" + count(Violation.LEAK) + " (" + checked
				+ "; measured: decreasing-tokens=" + this.decreasingTokens + ", excused-overlaps="
				+ this.excusedOverlaps + ", told-at-release-overlaps=" + this.toldAtReleaseOverlaps
				+ ", stale-rejected=" + this.staleRejected + ", unfenced-lost-updates=" + this.unfencedLostUpdates
				+ ", lost-sections=" + this.lostSections + ", attempts=" + this.attempts + ", busy=" + this.busy
				+ ", errors=" + this.errors + ", max-wait-overshoot=" + this.maxWaitOvershootMillis + "ms" + kinds()
				+ ")";
	}

	private String kinds() {
		String kinds = "";
		if (this.multiHolds > 0) {
			kinds += ", multi-holds=" + this.multiHolds;
		}
		if (this.permitSections > 0) {
			kinds += ", permit-sections=" + this.permitSections + ", max-permit-holders=" + this.maxPermitHolders;
		}
		return kinds;
	}

}
