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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.distlock.LockAcquisitionException;
import io.distlock.LockRequest;
import io.distlock.reactive.ReactiveLockTemplate;

import org.springframework.core.CoroutinesUtils;
import org.springframework.core.KotlinDetector;

/**
 * Runs a reactive {@code @DistributedLocked} method under its lock through the
 * {@link ReactiveLockTemplate}: the method is called on subscription, under the lock, and
 * its publisher is subscribed to while the lock is held. Each subscription calls the
 * method again, with a lock of its own. Kept apart from {@link LockInterceptor}, so that
 * Reactor is loaded only for applications that have reactive locked methods.
 */
final class ReactiveLockInvocation {

	private static final Log logger = LogFactory.getLog(LockInterceptor.class);

	private ReactiveLockInvocation() {
	}

	static Publisher<?> invoke(ReactiveLockTemplate template, LockOperation operation, LockRequest request,
			LockInvoker invoker, @Nullable Object[] args, Object target) {
		if (operation.shape() == MethodShape.MONO) {
			return template.execute(request, (lock) -> Mono.from(proceed(invoker)),
					(busy) -> Mono.from(notAcquired(operation, busy, args, target)));
		}
		return template.executeMany(request, (lock) -> proceed(invoker),
				(busy) -> notAcquired(operation, busy, args, target));
	}

	/**
	 * Call the method, through a copy of the invoker: a second subscription calls it
	 * again, through the interceptors after this one.
	 */
	private static Publisher<Object> proceed(LockInvoker invoker) {
		try {
			return orEmpty(invoker.copy().invoke());
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	private static Publisher<Object> notAcquired(LockOperation operation, LockAcquisitionException busy,
			@Nullable Object[] args, Object target) {
		switch (operation.onFailure()) {
			case SKIP -> {
				if (logger.isDebugEnabled()) {
					logger.debug("Skipped '" + operation.method() + "': lock '" + busy.getKey() + "' is busy");
				}
				return Mono.empty();
			}
			case FALLBACK -> {
				Method fallback = operation.fallback();
				return (fallback != null) ? fallback(fallback, args, target)
						: Mono.error(BusyMethodMessage.of(operation, busy));
			}
			default -> {
				return Mono.error(BusyMethodMessage.of(operation, busy));
			}
		}
	}

	private static Publisher<Object> fallback(Method fallback, @Nullable Object[] args, Object target) {
		if (KotlinDetector.isSuspendingFunction(fallback)) {
			// Its own Mono, run in the context of the subscriber, not the caller's
			// continuation.
			return orEmpty(CoroutinesUtils.invokeSuspendingFunction(fallback, target, args));
		}
		try {
			return orEmpty(fallback.invoke(target, args));
		}
		catch (InvocationTargetException ex) {
			return Mono.error(ex.getTargetException());
		}
		catch (IllegalAccessException ex) {
			return Mono.error(ex);
		}
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> orEmpty(@Nullable Object returned) {
		// The operation is reactive only for methods declared to return a Publisher, or
		// suspend functions, which Spring AOP turns into one.
		return (returned != null) ? (Publisher<Object>) returned : Flux.empty();
	}

}
