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
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.distlock.LockRequest;
import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;
import io.distlock.annotation.LockMode;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/**
 * Turns the attributes of one {@link DistributedLocked} annotation into a validated
 * {@link LockOperation}, failing with a message that names the method, the attribute and
 * the bad value.
 */
final class LockOperationParser {

	private static final Duration ONE_MILLISECOND = Duration.ofMillis(1);

	private static final boolean reactorPresent = ClassUtils.isPresent("reactor.core.publisher.Mono",
			LockOperationParser.class.getClassLoader());

	// What Spring AOP needs to hand a suspend function's work to interceptors as a Mono.
	private static final boolean coroutinesReactorPresent = reactorPresent
			&& ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", LockOperationParser.class.getClassLoader());

	// A wait time is capped when used, so only the arithmetic of parsing bounds it.
	private static final Duration MAX_WAIT_TIME = Duration.ofMillis(Long.MAX_VALUE);

	private final KeyExpressionParser keyParser;

	private final @Nullable StringValueResolver valueResolver;

	private final Duration defaultTtl;

	private final Duration defaultWaitTime;

	LockOperationParser(KeyExpressionParser keyParser, @Nullable StringValueResolver valueResolver, Duration defaultTtl,
			Duration defaultWaitTime) {
		this.keyParser = keyParser;
		this.valueResolver = valueResolver;
		this.defaultTtl = defaultTtl;
		this.defaultWaitTime = defaultWaitTime;
	}

	LockOperation parse(DistributedLocked locked, Method method, Class<?> targetClass) {
		KeyExpression key = this.keyParser.parse(locked.key(), locked.name(), method);
		List<KeyExpression> keys = keys(locked, method);
		String name = (locked.key().isEmpty() && keys.isEmpty()) ? "" : locked.name();
		Duration ttl = duration(method, "ttl", locked.ttl(), this.defaultTtl, LockRequest.MAX_TTL,
				"it must be at most " + LockRequest.MAX_TTL.toDays() + "d, the longest lease a lock can have");
		if (ttl.compareTo(ONE_MILLISECOND) < 0) {
			throw invalid(method, "ttl", "ttl '" + locked.ttl() + "' must be at least 1ms");
		}
		Duration waitTime = duration(method, "waitTime", locked.waitTime(), this.defaultWaitTime, MAX_WAIT_TIME,
				"it must fit in a long of milliseconds");
		LockFailurePolicy onFailure = locked.onFailure();
		if (onFailure == LockFailurePolicy.DEFAULT) {
			// Another instance runs a scheduled job whose lock is busy: nothing failed.
			onFailure = (scheduled(method) && locked.fallbackMethod().isEmpty()
					&& !(method.getReturnType().isPrimitive() && method.getReturnType() != void.class))
							? LockFailurePolicy.SKIP : LockFailurePolicy.THROW;
		}
		Method fallback = null;
		if (!locked.fallbackMethod().isEmpty()) {
			if (onFailure == LockFailurePolicy.SKIP) {
				throw invalid(method, "onFailure",
						"fallbackMethod '" + locked.fallbackMethod() + "' cannot be combined with onFailure = SKIP");
			}
			onFailure = LockFailurePolicy.FALLBACK;
			fallback = fallback(method, targetClass, locked.fallbackMethod());
		}
		else if (onFailure == LockFailurePolicy.FALLBACK) {
			throw invalid(method, "onFailure", "onFailure = FALLBACK needs a fallbackMethod");
		}
		if (onFailure == LockFailurePolicy.SKIP && method.getReturnType().isPrimitive()
				&& method.getReturnType() != void.class) {
			throw invalid(method, "onFailure",
					"onFailure = SKIP cannot skip a method returning " + method.getReturnType()
							+ ": there is no value to return; use a fallbackMethod, or return a wrapper or Optional");
		}
		LockOperation.Shape shape = shape(method);
		if (locked.fair() && (shape == LockOperation.Shape.MONO || shape == LockOperation.Shape.FLUX)) {
			throw invalid(method, "fair",
					"fair = true is not available on a reactive or suspend method: reactive locks "
							+ "are not taken in arrival order; remove fair = true");
		}
		checkKind(locked, method, keys, shape);
		Duration minHold = duration(method, "minHold", locked.minHold(), Duration.ZERO, LockRequest.MAX_TTL,
				"it must be at most " + LockRequest.MAX_TTL.toDays() + "d, the longest lease a lock can have");
		checkMinHold(locked, method, minHold, ttl, keys, shape);
		String lockName = locked.name().isEmpty()
				? ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName() : locked.name();
		return LockOperation.builder(method)
			.name(name)
			.key(key)
			.keys(keys)
			.mode(locked.mode())
			.permits(locked.permits())
			.ttl(ttl)
			.waitTime(waitTime)
			.minHold(minHold)
			.autoRenew(locked.autoRenew())
			.fair(locked.fair())
			.onFailure(onFailure)
			.fallback(fallback)
			.shape(shape)
			.lockName(lockName)
			.build();
	}

	private static boolean scheduled(Method method) {
		// By name: the scheduling annotations need not be used at all.
		MergedAnnotations annotations = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY);
		return annotations.isPresent("org.springframework.scheduling.annotation.Scheduled")
				|| annotations.isPresent("org.springframework.scheduling.annotation.Schedules");
	}

	private static void checkMinHold(DistributedLocked locked, Method method, Duration minHold, Duration ttl,
			List<KeyExpression> keys, LockOperation.Shape shape) {
		if (minHold.isZero()) {
			return;
		}
		if (!locked.autoRenew() && minHold.compareTo(ttl) > 0) {
			throw invalid(method, "minHold",
					"minHold '" + locked.minHold() + "' is longer than the ttl of " + ttl.toMillis()
							+ "ms without autoRenew: the lease would run out before it; raise the ttl, or "
							+ "renew the lease");
		}
		if (!keys.isEmpty()) {
			throw invalid(method, "minHold", "minHold '" + locked.minHold()
					+ "' cannot be combined with keys: it holds one lock longer; remove one of them");
		}
		if (shape == LockOperation.Shape.MONO || shape == LockOperation.Shape.FLUX) {
			throw invalid(method, "minHold",
					"minHold '" + locked.minHold() + "' is not available on a reactive or suspend method");
		}
	}

	private List<KeyExpression> keys(DistributedLocked locked, Method method) {
		String[] elements = locked.keys();
		if (elements.length == 0) {
			return List.of();
		}
		if (!locked.key().isEmpty()) {
			throw invalid(method, "keys", "key '" + locked.key() + "' and keys " + Arrays.toString(elements)
					+ " cannot be combined: use key for one lock, or keys for several");
		}
		List<KeyExpression> keys = new ArrayList<>(elements.length);
		for (int i = 0; i < elements.length; i++) {
			if (elements[i].isEmpty()) {
				throw invalid(method, "keys", "keys element " + i + " of " + Arrays.toString(elements)
						+ " is empty; every element must be a key expression");
			}
			keys.add(this.keyParser.parse(elements[i], locked.name(), method, "keys"));
		}
		return keys;
	}

	/**
	 * Check that the mode, permits and keys go together, with each other and with the
	 * method's shape.
	 */
	private static void checkKind(DistributedLocked locked, Method method, List<KeyExpression> keys,
			LockOperation.Shape shape) {
		int permits = locked.permits();
		LockMode mode = locked.mode();
		if (permits < 1) {
			throw invalid(method, "permits", "permits = " + permits
					+ " must be at least 1 (1 is the plain exclusive lock, more a concurrency limit)");
		}
		if (permits > 1 && mode != LockMode.EXCLUSIVE) {
			throw invalid(method, "permits", "permits = " + permits + " cannot be combined with mode = " + mode
					+ ": a concurrency limit is neither a read nor a write lock; remove one of them");
		}
		if (permits > 1 && locked.fair()) {
			throw invalid(method, "permits", "permits = " + permits
					+ " cannot be combined with fair = true: permits are not handed out in arrival order");
		}
		if (mode == LockMode.READ && locked.fair()) {
			throw invalid(method, "fair",
					"fair = true cannot be combined with mode = READ: only the write lock queues in arrival order");
		}
		if (!keys.isEmpty() && locked.fair()) {
			throw invalid(method, "keys", "keys cannot be combined with fair = true: several keys are not "
					+ "taken in arrival order; remove fair = true");
		}
		if (!keys.isEmpty() && permits > 1) {
			throw invalid(method, "keys", "keys cannot be combined with permits = " + permits
					+ ": a concurrency limit is one key; remove one of them");
		}
		boolean reactive = shape == LockOperation.Shape.MONO || shape == LockOperation.Shape.FLUX;
		if (!keys.isEmpty() && shape != LockOperation.Shape.BLOCKING) {
			throw invalid(method, "keys", "keys is not available on a method returning "
					+ method.getReturnType().getSimpleName() + " or a suspend function: several keys are held "
					+ "until the method returns only; lock them with LockTemplate.executeAll inside the work instead");
		}
		if (reactive && mode == LockMode.READ) {
			throw invalid(method, "mode", "mode = READ is not available on a reactive or suspend method: reactive "
					+ "locks are exclusive (or write) locks");
		}
		if (reactive && permits > 1) {
			throw invalid(method, "permits", "permits = " + permits
					+ " is not available on a reactive or suspend method: reactive locks are exclusive locks");
		}
	}

	private static LockOperation.Shape shape(Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			if (!coroutinesReactorPresent) {
				throw invalid(method, null, "it is a suspend function, whose lock is held by the coroutine's Mono: add "
						+ "org.jetbrains.kotlinx:kotlinx-coroutines-reactor, so that Spring AOP gives it one");
			}
			// The Kotlin return type: a Flow is adapted from a Flux.
			return "kotlinx.coroutines.flow.Flow".equals(new MethodParameter(method, -1).getParameterType().getName())
					? LockOperation.Shape.FLUX : LockOperation.Shape.MONO;
		}
		Class<?> returnType = method.getReturnType();
		// By name: Reactor is optional.
		if (reactorPresent && returnType.getName().equals("reactor.core.publisher.Mono")) {
			return LockOperation.Shape.MONO;
		}
		if (reactorPresent && (returnType.getName().equals("reactor.core.publisher.Flux")
				|| returnType.getName().equals("org.reactivestreams.Publisher"))) {
			return LockOperation.Shape.FLUX;
		}
		if (reactivePublisher(returnType)) {
			// The proxy returns a Mono or Flux of its own, which another type cannot
			// hold.
			throw invalid(method, null,
					"the method returns " + returnType.getName()
							+ ", a Publisher the lock cannot be held across; declare Mono, Flux or Publisher as the "
							+ "return type");
		}
		if ("kotlinx.coroutines.flow.Flow".equals(returnType.getName())) {
			throw invalid(method, null, "the method returns a Flow without being a suspend function, and Spring AOP "
					+ "cannot hold anything across it; return a Flux, or make it a suspend function");
		}
		if (returnType == CompletableFuture.class || returnType == CompletionStage.class) {
			return LockOperation.Shape.STAGE;
		}
		if (CompletionStage.class.isAssignableFrom(returnType)) {
			// The proxy returns a CompletableFuture of its own, completed after the
			// release, which another stage type cannot hold.
			throw invalid(method, null,
					"the method returns " + returnType.getName()
							+ ", a CompletionStage the lock cannot be held across; declare CompletableFuture or "
							+ "CompletionStage as the return type");
		}
		return LockOperation.Shape.BLOCKING;
	}

	private static boolean reactivePublisher(Class<?> returnType) {
		for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(returnType)) {
			if (type.getName().equals("org.reactivestreams.Publisher")) {
				return true;
			}
		}
		return false;
	}

	private Duration duration(Method method, String attribute, String value, Duration defaultValue, Duration max,
			String maxProblem) {
		if (value.isEmpty()) {
			return defaultValue;
		}
		String resolved;
		try {
			resolved = (this.valueResolver != null) ? this.valueResolver.resolveStringValue(value) : value;
		}
		catch (RuntimeException ex) {
			throw invalid(method, attribute, attribute + " '" + value + "' could not be resolved: " + ex.getMessage());
		}
		String shown = value.equals(resolved) ? "'" + value + "'" : "'" + value + "' (resolved to '" + resolved + "')";
		if (resolved == null || resolved.isBlank()) {
			throw invalid(method, attribute, attribute + " " + shown + " is empty");
		}
		Duration duration;
		try {
			duration = DurationFormatterUtils.detectAndParse(resolved.strip());
		}
		catch (IllegalArgumentException | DateTimeParseException ex) {
			throw invalid(method, attribute, attribute + " " + shown
					+ " is not a valid duration; use a number with a unit (500ms, 10s, 2m, 1h, 1d) or ISO-8601 (PT10S)");
		}
		if (duration.isNegative()) {
			throw invalid(method, attribute, attribute + " " + shown + " must not be negative");
		}
		if (duration.compareTo(max) > 0) {
			throw invalid(method, attribute, attribute + " " + shown + " is too long; " + maxProblem);
		}
		return duration;
	}

	private static Method fallback(Method method, Class<?> targetClass, String name) {
		Method fallback = ReflectionUtils.findMethod(targetClass, name, method.getParameterTypes());
		if (fallback == null) {
			throw invalid(method, "fallbackMethod", "fallbackMethod '" + name + "' does not exist on "
					+ targetClass.getName() + " with the same parameter types");
		}
		if (fallback.getName().equals(method.getName())) {
			// Same name and parameter types: the method itself, called on the target
			// without
			// the proxy, so its body would run without the lock.
			throw invalid(method, "fallbackMethod",
					"fallbackMethod '" + name + "' is the annotated method itself, which would then "
							+ "run without the lock; name a different method");
		}
		Class<?> returnType = method.getReturnType();
		if (returnType != void.class && !returnType.isAssignableFrom(fallback.getReturnType())
				&& !(returnType == Optional.class && fallback.getReturnType() == Optional.class)) {
			throw invalid(method, "fallbackMethod", "fallbackMethod '" + name + "' returns "
					+ fallback.getReturnType().getName() + ", which is not assignable to " + returnType.getName());
		}
		ReflectionUtils.makeAccessible(fallback);
		return fallback;
	}

	static InvalidLockOperationException invalid(Method method, @Nullable String attribute, String problem) {
		// Without a cause: the message says everything, and the root cause of the startup
		// failure is then this one, naming the method and the attribute.
		return new InvalidLockOperationException(method, attribute, problem);
	}

}
