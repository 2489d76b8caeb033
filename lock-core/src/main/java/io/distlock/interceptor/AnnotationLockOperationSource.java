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
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockRequest;
import io.distlock.annotation.DistributedLocked;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.ReflectionUtils.MethodFilter;

/**
 * Reads {@link DistributedLocked} from methods, on the implementation or on an interface
 * it implements, directly or as a meta-annotation, and caches the parsed
 * {@link LockOperation} per method and target class.
 *
 * <p>
 * Called while the auto-proxy creator looks at each bean, so every annotated method of a
 * class is parsed and validated when the bean is created: a bad attribute, or the
 * annotation on a private, final or static method that no proxy can intercept, fails the
 * startup instead of the first call.
 */
public class AnnotationLockOperationSource implements LockOperationSource, BeanFactoryAware {

	private static final Log logger = LogFactory.getLog(AnnotationLockOperationSource.class);

	private static final Object NO_OPERATION = new Object();

	/**
	 * The shortest ttl that renewal can keep: the lease is renewed every third of it, and
	 * a renewal must reach Redis before the lease runs out, within the other two thirds
	 * (200ms here), which have to cover a round trip to Redis, the scheduler's delay and
	 * a garbage-collection pause. Below this, one slow renewal loses the lock.
	 */
	static final Duration MIN_RENEWED_TTL = Duration.ofMillis(300);

	private static final boolean asyncPresent = ClassUtils.isPresent("org.springframework.scheduling.annotation.Async",
			AnnotationLockOperationSource.class.getClassLoader());

	private final Map<MethodClassKey, Object> operations = new ConcurrentHashMap<>(256);

	private final Map<Class<?>, Boolean> candidates = new ConcurrentHashMap<>(64);

	private final Set<Method> warnedShortTtl = ConcurrentHashMap.newKeySet();

	private final Duration defaultTtl;

	private final Duration defaultWaitTime;

	private @Nullable BeanFactory beanFactory;

	private volatile @Nullable LockOperationParser parser;

	/**
	 * Create a source that applies the given defaults to attributes left empty.
	 * @param defaultTtl the lease time of a lock without a {@code ttl}
	 * @param defaultWaitTime the wait time of a lock without a {@code waitTime}
	 */
	public AnnotationLockOperationSource(Duration defaultTtl, Duration defaultWaitTime) {
		Assert.isTrue(defaultTtl.compareTo(LockRequest.MAX_TTL) <= 0,
				() -> "'defaultTtl' must be at most " + LockRequest.MAX_TTL.toDays() + " days but was " + defaultTtl);
		Assert.isTrue(defaultTtl.compareTo(Duration.ofMillis(1)) >= 0,
				() -> "'defaultTtl' must be at least 1ms but was " + defaultTtl);
		Assert.isTrue(!defaultWaitTime.isNegative(),
				() -> "'defaultWaitTime' must not be negative but was " + defaultWaitTime);
		this.defaultTtl = defaultTtl;
		this.defaultWaitTime = defaultWaitTime;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
		this.parser = null;
	}

	@Override
	public boolean isCandidateClass(Class<?> targetClass) {
		if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLocked.class)) {
			return false;
		}
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		Boolean candidate = this.candidates.get(userClass);
		if (candidate == null) {
			candidate = parseLockedMethods(userClass);
			this.candidates.put(userClass, candidate);
		}
		return candidate;
	}

	/**
	 * Parse every annotated method of the class now, so that each one's errors surface at
	 * startup.
	 * @param userClass the class to scan
	 * @return whether the class has any annotated method
	 */
	private boolean parseLockedMethods(Class<?> userClass) {
		List<Method> annotated = new ArrayList<>();
		// Not the copies Kotlin makes: it puts the annotations of an open suspend
		// function onto the static foo$suspendImpl that holds its body, which no proxy
		// calls; Kotlin 2.3 marks that method synthetic, Kotlin 2.2 (Spring Boot 4.0's)
		// does not.
		MethodFilter isAnnotated = (method) -> !method.isSynthetic() && !isSuspendImpl(method)
				&& AnnotatedElementUtils.hasAnnotation(method, DistributedLocked.class);
		if (Proxy.isProxyClass(userClass)) {
			// The methods of a JDK proxy are final; the annotations are on its
			// interfaces.
			for (Class<?> ifc : userClass.getInterfaces()) {
				ReflectionUtils.doWithMethods(ifc, annotated::add, isAnnotated);
			}
		}
		else {
			ReflectionUtils.doWithMethods(userClass, annotated::add, isAnnotated);
		}
		for (Method method : annotated) {
			getLockOperation(method, userClass);
		}
		return !annotated.isEmpty();
	}

	private static boolean isSuspendImpl(Method method) {
		return Modifier.isStatic(method.getModifiers()) && method.getName().endsWith("$suspendImpl");
	}

	@Override
	public @Nullable LockOperation getLockOperation(Method method, @Nullable Class<?> targetClass) {
		if (method.getDeclaringClass() == Object.class) {
			return null;
		}
		MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
		Object cached = this.operations.get(cacheKey);
		if (cached == null) {
			LockOperation operation = computeLockOperation(method, targetClass);
			cached = (operation != null) ? operation : NO_OPERATION;
			this.operations.put(cacheKey, cached);
		}
		return (cached != NO_OPERATION) ? (LockOperation) cached : null;
	}

	@Override
	public Collection<LockOperation> getLockOperations() {
		Set<LockOperation> found = new LinkedHashSet<>();
		for (Object cached : this.operations.values()) {
			if (cached instanceof LockOperation operation) {
				found.add(operation);
			}
		}
		return found;
	}

	private @Nullable LockOperation computeLockOperation(Method method, @Nullable Class<?> targetClass) {
		Class<?> userClass = (targetClass != null) ? ClassUtils.getUserClass(targetClass) : method.getDeclaringClass();
		// A bean that is itself a JDK proxy (a Spring Data repository, an HTTP interface
		// client) is locked through the interface method: the proxy's own are final.
		Method specificMethod = Proxy.isProxyClass(userClass) ? method
				: AopUtils.getMostSpecificMethod(method, userClass);
		DistributedLocked locked = AnnotatedElementUtils.findMergedAnnotation(specificMethod, DistributedLocked.class);
		if (locked == null) {
			return null;
		}
		int modifiers = specificMethod.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
			throw LockOperationParser.invalid(specificMethod, null, "the method is "
					+ (Modifier.isPrivate(modifiers) ? "private" : Modifier.isStatic(modifiers) ? "static" : "final")
					+ ", so no proxy can intercept it and the lock would silently not apply; make it a public, "
					+ "non-final instance method");
		}
		LockOperation operation = parser().parse(locked, specificMethod, userClass);
		if (asyncPresent && !operation.async() && isAsyncAnnotated(specificMethod, userClass)) {
			checkAsyncWithoutStage(specificMethod);
		}
		warnIfTooShortToRenew(operation, locked.ttl());
		return operation;
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

	private void warnIfTooShortToRenew(LockOperation operation, String ttl) {
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

	private LockOperationParser parser() {
		LockOperationParser parser = this.parser;
		if (parser == null) {
			EmbeddedValueResolver valueResolver = (this.beanFactory instanceof ConfigurableBeanFactory configurable)
					? new EmbeddedValueResolver(configurable) : null;
			parser = new LockOperationParser(new KeyExpressionParser(this.beanFactory), valueResolver, this.defaultTtl,
					this.defaultWaitTime);
			this.parser = parser;
		}
		return parser;
	}

}
