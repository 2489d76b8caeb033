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
import java.util.concurrent.TimeUnit;

/**
 * The validity time of a Redlock lease: what is left of its ttl once the time the nodes
 * took and the clock drift between them are taken off, {@code ttl - elapsed - drift}, the
 * drift being {@code ttl * clockDriftFactor + 2ms}. A lock or renewal counts only while
 * it is positive.
 *
 * @param clockDriftFactor the fraction of the ttl allowed for clock drift between the
 * nodes
 */
record ValidityTime(double clockDriftFactor) {

	private static final long DRIFT_CONSTANT_MILLIS = 2;

	/**
	 * Return the validity time of a lease whose calls started at the given instant.
	 * @param ttl the lease's ttl
	 * @param start when the calls started, from {@link System#nanoTime()}
	 * @return the validity time in milliseconds, zero or negative when none is left
	 */
	long remainingMillis(Duration ttl, long start) {
		long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		long drift = (long) (ttl.toMillis() * this.clockDriftFactor) + DRIFT_CONSTANT_MILLIS;
		return ttl.toMillis() - elapsed - drift;
	}

}
