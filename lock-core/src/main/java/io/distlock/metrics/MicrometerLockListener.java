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

package io.distlock.metrics;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.distlock.LockListener;

/**
 * Records lock events as Micrometer meters: {@code distlock.lock.acquisitions} (a timer
 * of the time waited, tagged {@code result=acquired|busy}), {@code distlock.lock.held} (a
 * timer of the time held, tagged {@code result=released|expired|failed}), the counter
 * {@code distlock.lock.lost} and the gauge {@code distlock.lock.active} of locks acquired
 * and not yet closed.
 *
 * <p>
 * Meters carry no lock key: keys are unbounded (one per order, per user), and a tag per
 * key would grow the registry without limit.
 */
public class MicrometerLockListener implements LockListener {

	private final Timer acquired;

	private final Timer busy;

	private final Timer released;

	private final Timer expired;

	private final Timer failed;

	private final Counter lost;

	private final AtomicLong active = new AtomicLong();

	/**
	 * Create a listener that registers its meters in the given registry.
	 * @param registry the meter registry
	 */
	public MicrometerLockListener(MeterRegistry registry) {
		this.acquired = waitTimer("acquired", registry);
		this.busy = waitTimer("busy", registry);
		this.released = heldTimer("released", registry);
		this.expired = heldTimer("expired", registry);
		this.failed = heldTimer("failed", registry);
		this.lost = Counter.builder("distlock.lock.lost")
			.description("Locks found lost while their holder still worked under them")
			.register(registry);
		Gauge.builder("distlock.lock.active", this.active, AtomicLong::get)
			.description("Locks held by this application")
			.register(registry);
	}

	@Override
	public void onAcquired(String key, long fencingToken, Duration waited) {
		this.acquired.record(waited);
		this.active.incrementAndGet();
	}

	@Override
	public void onNotAcquired(String key, Duration waited) {
		this.busy.record(waited);
	}

	@Override
	public void onReleased(String key, Duration held) {
		this.released.record(held);
		this.active.decrementAndGet();
	}

	@Override
	public void onReleaseMismatch(String key, Duration held) {
		this.expired.record(held);
		this.active.decrementAndGet();
	}

	@Override
	public void onReleaseFailed(String key, Duration held, Throwable failure) {
		this.failed.record(held);
		this.active.decrementAndGet();
	}

	@Override
	public void onLost(String key, long fencingToken, Thread holder) {
		this.lost.increment();
	}

	private static Timer waitTimer(String result, MeterRegistry registry) {
		return Timer.builder("distlock.lock.acquisitions")
			.description("Time waited for a lock, by whether it was acquired or stayed busy")
			.tag("result", result)
			.register(registry);
	}

	private static Timer heldTimer(String result, MeterRegistry registry) {
		return Timer.builder("distlock.lock.held")
			.description("Time a lock was held, by whether it was released, had expired before its release, "
					+ "or its release failed")
			.tag("result", result)
			.register(registry);
	}

}
