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

import org.jspecify.annotations.Nullable;

import io.distlock.LockRequest;
import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;

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
		if (locked.autoRenew() && ttl.compareTo(LockRequest.MIN_RENEWED_TTL) < 0) {
			throw invalid(method, "ttl",
					LockOperationChecks.renewedTtlTooShort(locked.ttl(), resolve(locked.ttl()), ttl));
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
		MethodShape shape = MethodShape.of(method);
		if (locked.fair() && shape.reactive()) {
			throw invalid(method, "fair",
					"fair = true is not available on a reactive or suspend method: reactive locks "
							+ "are not taken in arrival order; remove fair = true");
		}
		LockOperationChecks.checkKind(locked, method, keys, shape);
		Duration minHold = duration(method, "minHold", locked.minHold(), Duration.ZERO, LockRequest.MAX_TTL,
				"it must be at most " + LockRequest.MAX_TTL.toDays() + "d, the longest lease a lock can have");
		LockOperationChecks.checkMinHold(locked, method, minHold, ttl, keys, shape);
		String lockName = locked.name().isEmpty()
				? ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName() : locked.name();
		return new LockOperationBuilder(method).name(name)
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

	private Duration duration(Method method, String attribute, String value, Duration defaultValue, Duration max,
			String maxProblem) {
		if (value.isEmpty()) {
			return defaultValue;
		}
		String resolved;
		try {
			resolved = resolve(value);
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

	private @Nullable String resolve(String value) {
		return (this.valueResolver != null) ? this.valueResolver.resolveStringValue(value) : value;
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
