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

package io.distlock.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.store.AcquireResult;

/**
 * Watches how far the fencing tokens a Redis hands out run ahead of its clock, the
 * run-time check of the assumption that the fencing guarantee needs (docs/safety.md).
 * <p>
 * A token runs ahead of the clock after the clock stepped back, or after a failover to a
 * server whose clock is behind the one that granted the key's last token. Tokens stay
 * increasing then, but a counter that is lost (its retention passed, a restart without
 * persistence) would restart from the clock, below the tokens already handed out, unless
 * the loss takes longer than the lead; and a lead above {@link #WARNING_THRESHOLD} means
 * two servers' clocks differ by more than the failover guarantee allows. The largest lead
 * seen is kept for {@link RedisLockClient#getLargestFencingLead()}, and a lead above the
 * threshold, or above the counter's retention, is logged: the first, and again each time
 * one is larger (in whole milliseconds) than the lead last logged, so that a small lead
 * warned of early does not hide a larger one later.
 */
final class FencingClockCheck {

	/**
	 * The largest lead that is not warned of: the clock difference between the old and
	 * the new primary that the failover guarantee allows.
	 */
	static final Duration WARNING_THRESHOLD = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	private final AtomicLong largestMicros = new AtomicLong();

	// The lead last warned of, in whole milliseconds; -1 before the first warning.
	private final AtomicLong warnedMillis = new AtomicLong(-1);

	/**
	 * Look at the answer of an acquisition.
	 * @param key the resource name, for the warning
	 * @param result what the store answered
	 * @param retentionMillis the fencing counter's retention, in milliseconds
	 * @return whether this lead was warned of
	 */
	boolean check(String key, AcquireResult result, long retentionMillis) {
		if (!(result instanceof AcquireResult.Acquired acquired)
				|| acquired.clockMicros() == AcquireResult.Acquired.UNKNOWN_CLOCK) {
			return false;
		}
		long lead = acquired.fencingToken() - acquired.clockMicros();
		if (lead <= 0) {
			return false;
		}
		this.largestMicros.accumulateAndGet(lead, Math::max);
		long limit = Math.min(WARNING_THRESHOLD.toNanos() / 1000, retentionMillis * 1000);
		if (lead > limit && grewPastTheLastWarning(lead / 1000)) {
			logger.warn("The fencing token of lock '" + key + "' runs " + Duration.ofNanos(lead * 1000)
					+ " ahead of the Redis clock (more than " + WARNING_THRESHOLD
					+ "): a clock stepped back, or a failover went to a server whose clock is behind the former "
					+ "primary's. Tokens stay increasing on this server; a failover that loses grants, or a lost "
					+ "fencing counter, within that time could repeat tokens (docs/safety.md). Logged again only for a larger lead.");
			return true;
		}
		return false;
	}

	private boolean grewPastTheLastWarning(long leadMillis) {
		long warned = this.warnedMillis.get();
		while (leadMillis > warned) {
			if (this.warnedMillis.compareAndSet(warned, leadMillis)) {
				return true;
			}
			warned = this.warnedMillis.get();
		}
		return false;
	}

	/**
	 * Return the largest lead seen so far.
	 * @return the lead, {@link Duration#ZERO} when tokens never ran ahead of the clock
	 */
	Duration largest() {
		return Duration.ofNanos(this.largestMicros.get() * 1000);
	}

}
