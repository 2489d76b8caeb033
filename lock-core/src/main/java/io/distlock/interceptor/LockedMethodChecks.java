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
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The checks {@link AnnotationLockOperationSource} makes of an annotated method beyond
 * its attributes: that a proxy can intercept it, that the work of an {@code @Async}
 * method stays under the lock, and that an auto-renewed ttl is long enough to renew.
 */
final class LockedMethodChecks {

	// Logs as the source: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(AnnotationLockOperationSource.class);

	/**
	 * The shortest ttl that renewal can keep: the lease is renewed every third of it, and
	 * a renewal must reach Redis before the lease runs out, within the other two thirds
	 * (200ms here), which have to cover a round trip to Redis, the scheduler's delay and
	 * a garbage-collection pause. Below this, one slow renewal loses the lock.
	 */
	static final Duration MIN_RENEWED_TTL = Duration.ofMillis(300);

	private static final boolean asyncPresent = ClassUtils.isPresent("org.springframework.scheduling.annotation.Async",
			LockedMethodChecks.class.getClassLoader());

	// Kotlin classes and their methods are final unless declared open; Spring's own
	// annotations open them only with the kotlin-spring compiler plugin.
	private static final String KOTLIN_FINAL = ". It is a Kotlin class, whose classes and methods are final unless "
			+ "declared open: apply the kotlin-spring (all-open) compiler plugin, which opens classes annotated with "
			+ "@Component, @Service, @Transactional and the like, or declare the class and the method open";

	private final Set<Method> warnedShortTtl = ConcurrentHashMap.newKeySet();

	/**
	 * Fail if no proxy can intercept the method: it is private, static or final.
	 * @param method the annotated method
	 * @throws InvalidLockOperationException if the lock would silently not apply
	 */
	static void checkProxyable(Method method) {
		int modifiers = method.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
			boolean onlyFinal = !Modifier.isPrivate(modifiers) && !Modifier.isStatic(modifiers);
			throw LockOperationParser.invalid(method, null, "the method is "
					+ (Modifier.isPrivate(modifiers) ? "private" : Modifier.isStatic(modifiers) ? "static" : "final")
					+ ", so no proxy can intercept it and the lock would silently not apply; make it a public, "
					+ "non-final instance method"
					+ ((onlyFinal && KotlinDetector.isKotlinType(method.getDeclaringClass())) ? KOTLIN_FINAL : ""));
		}
	}

	/**
	 * Fail if the method is static: a lock is evaluated against the object called.
	 * @param method the annotated method
	 * @throws InvalidLockOperationException if the lock would silently not apply
	 */
	static void checkNotStatic(Method method) {
		if (Modifier.isStatic(method.getModifiers())) {
			throw LockOperationParser.invalid(method, null,
					"the method is static, so the lock would silently not " + "apply; make it an instance method");
		}
	}

	/**
	 * Fail, or warn, if the method is {@code @Async} without returning a stage the lock
	 * is held across.
	 * @param operation the parsed operation
	 * @param method the annotated method
	 * @param userClass the class of the bean
	 * @throws InvalidLockOperationException if the lock would not cover the work
	 */
	static void checkAsync(LockOperation operation, Method method, Class<?> userClass) {
		if (asyncPresent && !operation.async() && isAsyncAnnotated(method, userClass)) {
			checkAsyncWithoutStage(method);
		}
	}

	private static boolean isAsyncAnnotated(Method method, Class<?> userClass) {
		return AnnotatedElementUtils.hasAnnotation(method, org.springframework.scheduling.annotation.Async.class)
				|| AnnotatedElementUtils.hasAnnotation(userClass,
						org.springframework.scheduling.annotation.Async.class);
	}

	private static void checkAsyncWithoutStage(Method method) {
		// With a CompletableFuture the lock is held until the work completes, whichever
		// proxy runs first; without one, the work runs after the method returned.
		if (method.getReturnType() == void.class) {
			throw LockOperationParser.invalid(method, null,
					"the method is @Async and returns void: its work runs "
							+ "after the method returns, so the lock would not cover it. Return a CompletableFuture "
							+ "(the lock is then held until it completes), or put @DistributedLocked on a method that "
							+ "the asynchronous task calls");
		}
		logger.warn("@DistributedLocked together with @Async on '" + method + "', which returns "
				+ method.getReturnType().getName() + ": depending on the order of the proxies, the lock may be "
				+ "released when the call is handed to the executor, before the work runs. Return a "
				+ "CompletableFuture, or put @DistributedLocked on a method that the asynchronous task calls.");
	}

	/**
	 * Warn, once per method, if its lease is renewed and its ttl is shorter than
	 * {@link #MIN_RENEWED_TTL}.
	 * @param operation the parsed operation
	 * @param ttl the {@code ttl} attribute as written, empty for the default
	 */
	void warnIfTooShortToRenew(LockOperation operation, String ttl) {
		// Once per method, though subclasses make it parsed once per target class.
		if (operation.autoRenew() && operation.ttl().compareTo(MIN_RENEWED_TTL) < 0
				&& this.warnedShortTtl.add(operation.method())) {
			String shown = ttl.isEmpty() ? "(the default) " + operation.ttl().toMillis() + "ms" : "'" + ttl + "'";
			logger.warn("@DistributedLocked on '" + operation.method() + "': ttl " + shown
					+ " is too short to be renewed: the lease is renewed every third of it, and each renewal "
					+ "must reach Redis before the lease runs out, so a slow round trip or a pause loses the lock "
					+ "while the method runs. Use a ttl of at least " + MIN_RENEWED_TTL.toMillis()
					+ "ms, or autoRenew = false for a fixed lease"
					+ (ttl.strip().chars().allMatch(Character::isDigit) && !ttl.isBlank()
							? " (a number without a unit is milliseconds)" : ""));
		}
	}

}
