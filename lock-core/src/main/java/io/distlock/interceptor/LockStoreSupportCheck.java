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

package io.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.LockMode;
import io.distlock.LockTemplate;
import io.distlock.reactive.ReactiveLockTemplate;

/**
 * Checks, once the application's singletons exist, that the lock store can do what the
 * annotated methods ask of it, for {@link LockInterceptor}: fair locks, read locks,
 * permits and a reactive template for reactive methods.
 */
final class LockStoreSupportCheck {

	// The remedy of Spring Boot's failure analysis of this refusal too, which names the
	// methods.
	static final String FAIR_REMEDY = "remove fair = true, or lock on a single Redis, Sentinel or Cluster by removing "
			+ "distlock.redlock.nodes";

	private final Collection<LockOperation> operations;

	/**
	 * Create a check of the given operations.
	 * @param operations the lock operations of the annotated methods
	 */
	LockStoreSupportCheck(Collection<LockOperation> operations) {
		this.operations = operations;
	}

	/**
	 * Fail if a method asks for what the lock store cannot do, naming every such method;
	 * each template is looked up only if a method needs it.
	 * @param template supplies the template that takes the locks
	 * @param reactiveTemplate supplies the reactive template, or {@code null} if there is
	 * none
	 * @throws UnsupportedLockOperationException if the lock store cannot serve the
	 * methods
	 */
	void check(Supplier<LockTemplate> template, Supplier<? extends @Nullable ReactiveLockTemplate> reactiveTemplate) {
		List<Method> reactive = methods(LockOperation::reactive);
		if (!reactive.isEmpty() && reactiveTemplate.get() == null) {
			throw new UnsupportedLockOperationException(UnsupportedLockOperationException.Feature.REACTIVE_LOCKS,
					reactive,
					"@DistributedLocked on " + reactive + " returns a Mono or Flux, or is a suspend "
							+ "function, and needs a ReactiveLockTemplate to lock it without blocking, but this "
							+ "application has none: it is auto-configured with Reactor and a "
							+ "ReactiveRedisConnectionFactory (Lettuce), on a single Redis, Sentinel or Cluster "
							+ "without distlock.replication.min-replicas; it is not available with Redlock");
		}
		List<Method> read = methods((operation) -> operation.mode() == LockMode.READ);
		if (!read.isEmpty() && !template.get().getEngine().supportsReadLocks()) {
			throw new UnsupportedLockOperationException(UnsupportedLockOperationException.Feature.READ_LOCKS, read,
					"@DistributedLocked(mode = READ) on " + read + " needs a lock store that holds keys for reading, "
							+ "but this application's lock store has no read locks (Redlock has none): use "
							+ "mode = EXCLUSIVE, or lock on a single Redis, Sentinel or Cluster");
		}
		List<Method> permits = methods((operation) -> operation.permits() > 1);
		if (!permits.isEmpty() && !template.get().getEngine().supportsPermits()) {
			throw new UnsupportedLockOperationException(UnsupportedLockOperationException.Feature.PERMITS, permits,
					"@DistributedLocked(permits > 1) on " + permits + " needs a lock store that hands out permits, "
							+ "but this application's lock store has none (Redlock has none): remove permits, or "
							+ "lock on a single Redis, Sentinel or Cluster");
		}
		List<Method> fair = methods(LockOperation::fair);
		if (!fair.isEmpty() && !template.get().getEngine().supportsFairLocks()) {
			throw new UnsupportedLockOperationException(UnsupportedLockOperationException.Feature.FAIR_LOCKS, fair,
					"@DistributedLocked(fair = true) on " + fair + " needs a lock store that takes locks in "
							+ "arrival order, but this application's lock store has no fair mode (Redlock has none): "
							+ FAIR_REMEDY);
		}
	}

	private List<Method> methods(Predicate<LockOperation> condition) {
		return this.operations.stream().filter(condition).map(LockOperation::method).distinct().toList();
	}

}
