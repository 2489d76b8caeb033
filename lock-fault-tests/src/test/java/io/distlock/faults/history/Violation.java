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

/**
 * The kinds of violation the {@link HistoryChecker} looks for.
 */
public enum Violation {

	/**
	 * Two critical sections on one key overlapped, and the stale holder (the one with the
	 * lower fencing token) was never told that its lock was lost. Counted once per stale
	 * section.
	 */
	OVERLAP("overlaps"),

	/**
	 * The fenced storage accepted an operation with a token lower than one it had already
	 * accepted for the key.
	 */
	OUT_OF_ORDER("out-of-order-accepted"),

	/**
	 * Two different acquisitions of one key got the same fencing token.
	 */
	DUPLICATE_TOKEN("duplicate-tokens"),

	/**
	 * A section entered after another one on the same key had ended got a lower token,
	 * and its holder was never told that its lock was lost.
	 */
	TOKEN_REGRESSION("token-regressions"),

	/**
	 * A write to the fenced counter was accepted although the counter had changed since
	 * the holder read it: an increment was lost.
	 */
	LOST_UPDATE("lost-updates"),

	/**
	 * A lock never released: still in Redis after every client finished and the ttl
	 * passed, or a section whose lock the client never gave back.
	 */
	LEAK("leaked"),

	/**
	 * An acquisition attempt that took longer than its wait time plus the tolerance (one
	 * bounded Redis call and scheduling slack), not counting the time its JVM did not
	 * run.
	 */
	LATE_WAITER("late-waiters"),

	/**
	 * More holders of one key's permits in their sections at once than its limit,
	 * counting only holders never told that their permit was lost. Counted once per entry
	 * that went over the limit.
	 */
	PERMIT_EXCESS("over-permit-limit"),

	/**
	 * A multi-key acquisition that did not hold all its keys at once: its handle lacked a
	 * key asked for (or held one not asked for), a key's section is missing or carries
	 * another token than the handle's for that key, or one key's section ended before
	 * another key's began.
	 */
	MULTI_PARTIAL("partial-multi-holds");

	private final String label;

	Violation(String label) {
		this.label = label;
	}

	/**
	 * Return the name used in the summary line.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

}
