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

package io.distlock.redlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;

/**
 * Measures how far the clocks of the Redlock nodes differ, the run-time check of the
 * assumption Redlock's fencing guarantee needs (docs/safety.md): tokens increase across
 * majorities as long as any two nodes' clocks differ by less than the lock's ttl and the
 * fencing counter's retention.
 * <p>
 * Every node that grants a lock answers with its clock at the grant, so the measure costs
 * no command. The nodes read their clocks at different moments of one round, so the
 * difference of two readings overstates the offset by up to the round's duration; that is
 * taken off, and what is kept is an offset the clocks have at least. The largest is kept
 * for {@link RedlockClient#getLargestClockOffset()}; one that reaches the bound of its
 * acquisition is logged: the first, and again each time one is larger (in whole
 * milliseconds) than the offset last logged, so that an offset warned of early, beyond a
 * short ttl, does not hide a larger one later.
 */
final class ClockOffsets {

	private static final Log logger = LogFactory.getLog(RedlockClient.class);

	private final AtomicLong largestMicros = new AtomicLong();

	// The offset last warned of, in whole milliseconds; -1 before the first warning.
	private final AtomicLong warnedMillis = new AtomicLong(-1);

	/**
	 * Measure the offsets shown by the nodes' answers to one acquisition.
	 * @param key the resource name, for the warning
	 * @param replies the nodes' answers, {@link AcquireResult}s or anything else for a
	 * node that did not answer
	 * @param ttl the acquisition's lease time
	 * @param roundNanos how long the round took
	 * @return whether this measure was warned of (it reached its bound and is larger than
	 * the offset last warned of)
	 */
	boolean measure(String key, List<@Nullable Object> replies, Duration ttl, long roundNanos) {
		long earliest = Long.MAX_VALUE;
		long latest = Long.MIN_VALUE;
		for (Object reply : replies) {
			if (reply instanceof AcquireResult.Acquired acquired
					&& acquired.clockMicros() != AcquireResult.Acquired.UNKNOWN_CLOCK) {
				earliest = Math.min(earliest, acquired.clockMicros());
				latest = Math.max(latest, acquired.clockMicros());
			}
		}
		if (earliest == Long.MAX_VALUE) {
			return false;
		}
		long offset = latest - earliest - roundNanos / 1000;
		if (offset <= 0) {
			return false;
		}
		this.largestMicros.accumulateAndGet(offset, Math::max);
		Duration measured = Duration.ofNanos(offset * 1000);
		Duration bound = (ttl.compareTo(RedisLockClient.MIN_FENCING_COUNTER_RETENTION) < 0) ? ttl
				: RedisLockClient.MIN_FENCING_COUNTER_RETENTION;
		if (measured.compareTo(bound) >= 0 && grewPastTheLastWarning(offset / 1000)) {
			logger.warn("The clocks of the Redlock nodes differ by at least " + measured + " (lock '" + key + "', ttl "
					+ ttl + "): fencing tokens are only sure to increase across majorities while the "
					+ "clocks differ by less than the ttl and the fencing counter's retention (docs/redlock.md). "
					+ "Logged again only for a larger offset.");
			return true;
		}
		return false;
	}

	private boolean grewPastTheLastWarning(long offsetMillis) {
		long warned = this.warnedMillis.get();
		while (offsetMillis > warned) {
			if (this.warnedMillis.compareAndSet(warned, offsetMillis)) {
				return true;
			}
			warned = this.warnedMillis.get();
		}
		return false;
	}

	/**
	 * Return the largest offset measured so far.
	 * @return the offset, {@link Duration#ZERO} before any was seen
	 */
	Duration largest() {
		return Duration.ofNanos(this.largestMicros.get() * 1000);
	}

}
