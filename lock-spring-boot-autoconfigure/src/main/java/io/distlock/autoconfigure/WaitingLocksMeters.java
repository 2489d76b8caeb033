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

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.distlock.LockAdministration;
import io.distlock.observation.DefaultLockObservationConvention;

/**
 * The gauge {@value #WAITING} of the application's lock settings: how many callers of
 * this instance wait for a lock now, one gauge per lock name, tagged as the lock meters
 * are ({@code distlock.lock.name}, {@code none} when unnamed). The time they waited is
 * the {@code distlock.lock} timer of the {@code acquire} phase.
 */
final class WaitingLocksMeters {

	static final String WAITING = "distlock.lock.waiting";

	private final MeterRegistry registry;

	private final LockAdministration locks;

	/**
	 * Register a gauge for each lock name waited for, now and as names come.
	 * @param registry the registry
	 * @param locks the administration of the application's lock engine
	 */
	WaitingLocksMeters(MeterRegistry registry, LockAdministration locks) {
		this.registry = registry;
		this.locks = locks;
		locks.forEachWaitedOnName(this::register);
	}

	/**
	 * Register the gauge of a lock name, at zero until callers wait for it; nothing when
	 * it has one already.
	 * @param name the lock name, empty when unnamed
	 */
	void register(String name) {
		Gauge.builder(WAITING, this.locks, (locks) -> locks.getWaitingCount(name))
			.description("Callers of this instance waiting for a lock")
			.tag(DefaultLockObservationConvention.LOCK_NAME, name.isEmpty() ? "none" : name)
			.strongReference(true)
			.register(this.registry);
	}

}
