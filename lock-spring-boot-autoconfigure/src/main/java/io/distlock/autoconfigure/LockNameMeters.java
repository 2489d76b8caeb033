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

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.distlock.interceptor.LockOperation;
import io.distlock.interceptor.LockOperationSource;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationContext;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The meters of every lock name known at startup, registered at zero once every singleton
 * is created, so that a dashboard or an alert over them has a series before the first
 * event: the counter {@value #LOST} and the gauge {@value WaitingLocksMeters#WAITING}.
 * The names are those of the annotated methods whose beans were created (the annotation's
 * {@code name}, else {@code ClassName.methodName}); other names get their meters with
 * their first event.
 *
 * <p>
 * The counter has the tags the lock observations give it when a lock is found lost
 * ({@code distlock.lock.name}, {@code distlock.lock.phase=hold}), so it is the same
 * meter. With a {@link io.distlock.observation.LockObservationConvention} of the
 * application's own, whose tags this cannot know, it is left to the first event.
 */
final class LockNameMeters implements SmartInitializingSingleton {

	static final String LOST = DefaultLockObservationConvention.NAME + "." + LockObservationContext.LOST.getName();

	private final MeterRegistry registry;

	private final ObjectProvider<LockOperationSource> operationSources;

	private final ObjectProvider<WaitingLocksMeters> waitingLocksMeters;

	private final boolean defaultConvention;

	/**
	 * Create the meters of the lock names that the given sources know once every
	 * singleton is created.
	 * @param registry the registry
	 * @param operationSources the sources of the annotated methods' lock definitions
	 * @param waitingLocksMeters the gauges of the waiting callers, if any
	 * @param defaultConvention whether the lock observations are named by the default
	 * convention
	 */
	LockNameMeters(MeterRegistry registry, ObjectProvider<LockOperationSource> operationSources,
			ObjectProvider<WaitingLocksMeters> waitingLocksMeters, boolean defaultConvention) {
		this.registry = registry;
		this.operationSources = operationSources;
		this.waitingLocksMeters = waitingLocksMeters;
		this.defaultConvention = defaultConvention;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Set<String> names = new LinkedHashSet<>();
		this.operationSources.orderedStream()
			.map(LockOperationSource::getLockOperations)
			.flatMap(Collection::stream)
			.map(LockOperation::lockName)
			.forEach(names::add);
		WaitingLocksMeters waiting = this.waitingLocksMeters.getIfAvailable();
		for (String name : names) {
			if (this.defaultConvention) {
				Counter.builder(LOST)
					.description(LockObservationContext.LOST.getContextualName())
					.tag(DefaultLockObservationConvention.LOCK_NAME, name.isEmpty() ? "none" : name)
					.tag(DefaultLockObservationConvention.PHASE, "hold")
					.register(this.registry);
			}
			if (waiting != null) {
				waiting.register(name);
			}
		}
	}

}
