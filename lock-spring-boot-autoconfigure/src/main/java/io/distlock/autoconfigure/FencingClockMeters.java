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

package io.distlock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import org.jspecify.annotations.Nullable;

import io.distlock.redis.RedisLockClient;
import io.distlock.redlock.RedlockClient;
import io.distlock.store.LockClient;

/**
 * Gauges of the run-time checks of the fencing guarantee's assumptions (docs/safety.md):
 * {@code distlock.fencing.lead}, the largest lead of a fencing token over the Redis
 * clock, and {@code distlock.redlock.clock.offset}, the largest offset measured between
 * the clocks of two Redlock nodes.
 */
final class FencingClockMeters {

	static final String LEAD = "distlock.fencing.lead";

	static final String CLOCK_OFFSET = "distlock.redlock.clock.offset";

	/**
	 * Register the gauges of the given store, for those that it measures.
	 * @param registry the registry
	 * @param client the application's lock store, or {@code null} if there is not one
	 */
	FencingClockMeters(MeterRegistry registry, @Nullable LockClient client) {
		if (client instanceof RedisLockClient redis) {
			gauge(registry, LEAD, "The largest lead of a fencing token over the Redis clock", redis,
					redis::getLargestFencingLead);
		}
		if (client instanceof RedlockClient redlock) {
			gauge(registry, CLOCK_OFFSET, "The largest offset measured between the clocks of two Redlock nodes",
					redlock, redlock::getLargestClockOffset);
		}
	}

	private static void gauge(MeterRegistry registry, String name, String description, Object client,
			Supplier<Duration> value) {
		TimeGauge.builder(name, client, TimeUnit.SECONDS, (ignored) -> value.get().toNanos() / 1e9)
			.description(description)
			.register(registry);
	}

}
