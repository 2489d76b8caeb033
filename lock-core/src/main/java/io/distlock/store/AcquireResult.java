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

package io.distlock.store;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The answer of one acquire attempt: the lock with its fencing token, busy with the
 * holder's remaining lease, or not confirmed by the store (and not held).
 *
 * @see LockClient#tryAcquire(String, String, Duration)
 */
public sealed interface AcquireResult {

	/**
	 * The lock was taken.
	 *
	 * @param fencingToken the fencing token of this acquisition
	 * @param clockMicros the store's clock when it granted the token, in microseconds
	 * since the epoch, or {@link #UNKNOWN_CLOCK} when the store does not say; tells how
	 * far a token runs ahead of the clock, and how far the clocks of several stores
	 * differ (Redlock)
	 */
	record Acquired(long fencingToken, long clockMicros) implements AcquireResult {

		/**
		 * The {@link #clockMicros()} of a store that does not tell its clock.
		 */
		public static final long UNKNOWN_CLOCK = 0;

		/**
		 * Create the answer of a store that does not tell its clock.
		 * @param fencingToken the fencing token of this acquisition
		 */
		public Acquired(long fencingToken) {
			this(fencingToken, UNKNOWN_CLOCK);
		}

		/**
		 * Return how far the token runs ahead of the store's clock: zero while tokens
		 * come from the clock, more after the clock stepped back or after a failover to a
		 * server whose clock is behind the one that granted the last token.
		 * @return the lead, or {@link Duration#ZERO} when the store does not tell its
		 * clock or the token is behind it
		 */
		public Duration clockLead() {
			return (this.clockMicros != UNKNOWN_CLOCK && this.fencingToken > this.clockMicros)
					? Duration.of(this.fencingToken - this.clockMicros, ChronoUnit.MICROS) : Duration.ZERO;
		}

	}

	/**
	 * The lock is held by another owner.
	 *
	 * @param remainingTtl the holder's remaining lease, or {@code null} if the lock key
	 * has no expiry (set by something other than distlock)
	 * @param keepsReadersOut whether this attempt, a writer's that found readers of a
	 * {@link ReadWriteLockClient}, now keeps new readers out until it takes the lock or
	 * withdraws with an owner-checked {@link LockClient#release release}
	 * @param holder the holder that kept this attempt out, as the store reported it in
	 * the attempt's own reply (the writer, the reader whose hold ends last, or the permit
	 * holder whose lease ends first), or {@code null} when the store did not say or the
	 * holder's owner token describes no holder
	 */
	record Busy(@org.jspecify.annotations.Nullable Duration remainingTtl, boolean keepsReadersOut,
			@org.jspecify.annotations.Nullable LockHolder holder) implements AcquireResult {

		/**
		 * Create the answer of an attempt that keeps no reader out.
		 * @param remainingTtl the holder's remaining lease, or {@code null}
		 */
		public Busy(@org.jspecify.annotations.Nullable Duration remainingTtl) {
			this(remainingTtl, false, null);
		}

		/**
		 * Create the answer of an attempt, naming no holder.
		 * @param remainingTtl the holder's remaining lease, or {@code null}
		 * @param keepsReadersOut whether this attempt now keeps new readers out
		 */
		public Busy(@org.jspecify.annotations.Nullable Duration remainingTtl, boolean keepsReadersOut) {
			this(remainingTtl, keepsReadersOut, null);
		}

	}

	/**
	 * The store could not take the lock safely just now, and holds nothing of this
	 * attempt: it took the lock but too few replicas acknowledged it in time, so it gave
	 * it back, or Redis Cluster refused the script while the lock's slot migrates. Worth
	 * another attempt; the caller is not the holder.
	 *
	 * @param reason what was missing, for the error that a caller gets when it stops
	 * trying, such as "acknowledged by 0 of 1 replica(s) within 100ms"
	 */
	record NotConfirmed(String reason) implements AcquireResult {

	}

}
