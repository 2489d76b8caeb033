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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The checks {@link AnnotationLockOperationSource} makes of an annotated method beyond
 * its attributes: that a proxy can intercept it, and that the work of an {@code @Async}
 * method stays under the lock.
 */
final class LockedMethodChecks {

	// Logs as the source: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(AnnotationLockOperationSource.class);

	private static final boolean asyncPresent = ClassUtils.isPresent("org.springframework.scheduling.annotation.Async",
			LockedMethodChecks.class.getClassLoader());

	// Kotlin classes and their methods are final unless declared open; Spring's own
	// annotations open them only with the kotlin-spring compiler plugin.
	private static final String KOTLIN_FINAL = ". It is a Kotlin class, whose classes and methods are final unless "
			+ "declared open: apply the kotlin-spring (all-open) compiler plugin, which opens classes annotated with "
			+ "@Component, @Service, @Transactional and the like, or declare the class and the method open";

	private LockedMethodChecks() {
	}

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

}
