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

package io.distlock.lease;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A {@link Clock} that reads {@link System#nanoTime()}: the wall-clock time at which it
 * was created plus the time elapsed since then.
 *
 * <p>
 * Wall-clock jumps (NTP corrections, a changed system time) never move it, so they
 * neither shorten nor lengthen the leases timed with it. Its instants drift from the wall
 * clock over time and are meant for measuring intervals, not for display.
 */
final class MonotonicClock extends Clock {

	private final Instant base;

	private final long baseNanos;

	private final ZoneId zone;

	/**
	 * Create a clock that starts at the current wall-clock time, in UTC.
	 */
	MonotonicClock() {
		this(Instant.now(), System.nanoTime(), ZoneOffset.UTC);
	}

	private MonotonicClock(Instant base, long baseNanos, ZoneId zone) {
		this.base = base;
		this.baseNanos = baseNanos;
		this.zone = zone;
	}

	@Override
	public ZoneId getZone() {
		return this.zone;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		// Shares the base, so both clocks stay on one timeline.
		return new MonotonicClock(this.base, this.baseNanos, zone);
	}

	@Override
	public Instant instant() {
		return this.base.plusNanos(System.nanoTime() - this.baseNanos);
	}

}
