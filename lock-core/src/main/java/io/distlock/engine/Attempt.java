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

package io.distlock.engine;

import java.time.Duration;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;

/**
 * The outcome of the last acquire attempt, with the time it was sent: a lease taken by it
 * started then, one round trip before its answer arrived. Blocking and reactive
 * acquisition alike.
 *
 * @param result the answer of the store
 * @param sentAtNanos the {@link System#nanoTime()} at which the attempt was sent
 */
record Attempt(AcquireResult result, long sentAtNanos) {

	// Longer waits count as this, so that the deadline stays a representable nanoTime.
	private static final Duration FOREVER = Duration.ofDays(365L * 100);

	/**
	 * An attempt that was never confirmed, up to the last, is a backend failure, not a
	 * busy lock: the store could not take the lock safely, busy or not.
	 */
	static Attempt confirmed(String key, Attempt attempt) {
		if (attempt.result() instanceof AcquireResult.NotConfirmed notConfirmed) {
			throw new LockBackendException(key, "Lock '" + key + "' could not be taken: " + notConfirmed.reason(),
					null);
		}
		return attempt;
	}

	/**
	 * How long the holder may keep the lock at most, or -1 when unknown: then the waiter
	 * backs off.
	 */
	static long retryNanos(AcquireResult result) {
		Duration remaining = (result instanceof AcquireResult.Busy busy) ? busy.remainingTtl() : null;
		return (remaining != null) ? remaining.toNanos() : -1;
	}

	/**
	 * Return the {@link System#nanoTime()} at which a wait of the given time that started
	 * at the given one ends; longer waits than a century count as a century, so that the
	 * deadline stays representable.
	 */
	static long deadline(long startNanos, Duration waitTime) {
		return startNanos + ((waitTime.compareTo(FOREVER) < 0) ? waitTime : FOREVER).toNanos();
	}

}
