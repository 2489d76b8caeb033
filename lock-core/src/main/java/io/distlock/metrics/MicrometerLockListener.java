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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
 * and not yet closed. The timers and the counter are also tagged with the lock's
 * {@code name} ({@code none} when unnamed).
 *
 * <p>
 * Meters carry no lock key: keys are unbounded (one per order, per user), and a tag per
 * key would grow the registry without limit. Names are chosen by the code, so their
 * number is bounded by it.
 */
public class MicrometerLockListener implements LockListener {

	private static final String UNNAMED = "none";

	private final MeterRegistry registry;

	private final Map<String, NamedMeters> meters = new ConcurrentHashMap<>();

	private final AtomicLong active = new AtomicLong();

	/**
	 * Create a listener that registers its meters in the given registry.
	 * @param registry the meter registry
	 */
	public MicrometerLockListener(MeterRegistry registry) {
		this.registry = registry;
		meters("");
		Gauge.builder("distlock.lock.active", this.active, AtomicLong::get)
			.description("Locks held by this application")
			.register(registry);
	}

	@Override
	public void onAcquired(String key, long fencingToken, Duration waited) {
		onAcquired(key, "", fencingToken, waited);
	}

	@Override
	public void onAcquired(String key, String name, long fencingToken, Duration waited) {
		meters(name).acquired.record(waited);
		this.active.incrementAndGet();
	}

	@Override
	public void onNotAcquired(String key, Duration waited) {
		onNotAcquired(key, "", waited);
	}

	@Override
	public void onNotAcquired(String key, String name, Duration waited) {
		meters(name).busy.record(waited);
	}

	@Override
	public void onReleased(String key, Duration held) {
		onReleased(key, "", held);
	}

	@Override
	public void onReleased(String key, String name, Duration held) {
		meters(name).released.record(held);
		this.active.decrementAndGet();
	}

	@Override
	public void onReleaseMismatch(String key, Duration held) {
		onReleaseMismatch(key, "", held);
	}

	@Override
	public void onReleaseMismatch(String key, String name, Duration held) {
		meters(name).expired.record(held);
		this.active.decrementAndGet();
	}

	@Override
	public void onReleaseFailed(String key, Duration held, Throwable failure) {
		onReleaseFailed(key, "", held, failure);
	}

	@Override
	public void onReleaseFailed(String key, String name, Duration held, Throwable failure) {
		meters(name).failed.record(held);
		this.active.decrementAndGet();
	}

	@Override
	public void onLost(String key, long fencingToken, Thread holder) {
		onLost(key, "", fencingToken, holder);
	}

	@Override
	public void onLost(String key, String name, long fencingToken, Thread holder) {
		meters(name).lost.increment();
	}

	private NamedMeters meters(String name) {
		return this.meters.computeIfAbsent(name, (n) -> new NamedMeters(n.isEmpty() ? UNNAMED : n, this.registry));
	}

	/**
	 * The meters of one lock name.
	 */
	private static final class NamedMeters {

		final Timer acquired;

		final Timer busy;

		final Timer released;

		final Timer expired;

		final Timer failed;

		final Counter lost;

		NamedMeters(String name, MeterRegistry registry) {
			this.acquired = waitTimer(name, "acquired", registry);
			this.busy = waitTimer(name, "busy", registry);
			this.released = heldTimer(name, "released", registry);
			this.expired = heldTimer(name, "expired", registry);
			this.failed = heldTimer(name, "failed", registry);
			this.lost = Counter.builder("distlock.lock.lost")
				.description("Locks found lost while their holder still worked under them")
				.tag("name", name)
				.register(registry);
		}

		private static Timer waitTimer(String name, String result, MeterRegistry registry) {
			return Timer.builder("distlock.lock.acquisitions")
				.description("Time waited for a lock, by whether it was acquired or stayed busy")
				.tag("name", name)
				.tag("result", result)
				.register(registry);
		}

		private static Timer heldTimer(String name, String result, MeterRegistry registry) {
			return Timer.builder("distlock.lock.held")
				.description("Time a lock was held, by whether it was released, had expired before its release, "
						+ "or its release failed")
				.tag("name", name)
				.tag("result", result)
				.register(registry);
		}

	}

}
