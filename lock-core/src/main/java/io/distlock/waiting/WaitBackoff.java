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

package io.distlock.waiting;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The fallback backoff of one {@link LockWaiter.Waiter}: doubles from the initial pause
 * up to the maximum, with jitter, so that waiting never depends on notifications alone.
 * Used by one caller at a time.
 */
final class WaitBackoff {

	private final long maxNanos;

	private long nanos;

	/**
	 * Create a backoff.
	 * @param initialNanos the first pause in nanoseconds
	 * @param maxNanos the longest pause in nanoseconds
	 */
	WaitBackoff(long initialNanos, long maxNanos) {
		this.nanos = initialNanos;
		this.maxNanos = maxNanos;
	}

	/**
	 * Return the next pause and double the one after it, up to the maximum.
	 * @param busyForNanos the holder's remaining lease in nanoseconds, or a negative
	 * value if unknown
	 * @return the pause in nanoseconds, at most the holder's remaining lease
	 */
	long nextPauseNanos(long busyForNanos) {
		long backoff = this.nanos;
		this.nanos = Math.min(backoff * 2, this.maxNanos);
		// Jitter spreads out the retries of waiters that missed the same release.
		long sleep = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
		return (busyForNanos >= 0) ? Math.min(sleep, busyForNanos) : sleep;
	}

}
