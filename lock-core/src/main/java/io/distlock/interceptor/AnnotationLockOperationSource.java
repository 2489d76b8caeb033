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
 * startup instead of the first call. For a woven aspect, which runs inside the class,
 * private and final methods can be locked too; static ones never.
 */
public class AnnotationLockOperationSource implements LockOperationSource, BeanFactoryAware {

	private static final Object NO_OPERATION = new Object();

	private final Map<MethodClassKey, Object> operations = new ConcurrentHashMap<>(256);

	private final Map<Class<?>, Boolean> candidates = new ConcurrentHashMap<>(64);

	private final Duration defaultTtl;

	private final Duration defaultWaitTime;

	private final boolean proxyableOnly;

	private @Nullable BeanFactory beanFactory;

	private volatile @Nullable LockOperationParser parser;

	/**
	 * Create a source that applies the given defaults to attributes left empty.
	 * @param defaultTtl the lease time of a lock without a {@code ttl}
	 * @param defaultWaitTime the wait time of a lock without a {@code waitTime}
	 */
	public AnnotationLockOperationSource(Duration defaultTtl, Duration defaultWaitTime) {
		this(defaultTtl, defaultWaitTime, true);
	}

	/**
	 * Create a source that applies the given defaults to attributes left empty, for a
	 * proxy or for a woven aspect.
	 * @param defaultTtl the lease time of a lock without a {@code ttl}
	 * @param defaultWaitTime the wait time of a lock without a {@code waitTime}
	 * @param proxyableOnly whether every annotated method must be one a proxy can
	 * intercept ({@code true}, for proxy mode), or may also be private or final
	 * ({@code false}, for the woven {@code DistributedLockedAspect})
	 */
	public AnnotationLockOperationSource(Duration defaultTtl, Duration defaultWaitTime, boolean proxyableOnly) {
		Assert.isTrue(defaultTtl.compareTo(LockRequest.MAX_TTL) <= 0,
				() -> "'defaultTtl' must be at most " + LockRequest.MAX_TTL.toDays() + " days but was " + defaultTtl);
		Assert.isTrue(defaultTtl.compareTo(Duration.ofMillis(1)) >= 0,
				() -> "'defaultTtl' must be at least 1ms but was " + defaultTtl);
		Assert.isTrue(!defaultWaitTime.isNegative(),
				() -> "'defaultWaitTime' must not be negative but was " + defaultWaitTime);
		this.defaultTtl = defaultTtl;
		this.defaultWaitTime = defaultWaitTime;
		this.proxyableOnly = proxyableOnly;
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
		// Nor the static body Kotlin copies a suspend function's annotations onto, which
		// Spring AOP asks about too, among every method of the class.
		if (method.getDeclaringClass() == Object.class || isSuspendImpl(method)) {
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
		if (this.proxyableOnly) {
			LockedMethodChecks.checkProxyable(specificMethod);
		}
		else {
			LockedMethodChecks.checkNotStatic(specificMethod);
		}
		LockOperation operation = parser().parse(locked, specificMethod, userClass);
		LockedMethodChecks.checkAsync(operation, specificMethod, userClass);
		return operation;
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
