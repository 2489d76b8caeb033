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

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

import io.distlock.LockRequest;
import io.distlock.interceptor.InvalidLockOperationException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.ClassUtils;

/**
 * Reports an {@link InvalidLockOperationException}: the method, the attribute and its bad
 * value, and how to fix that attribute.
 */
class InvalidLockOperationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockOperationException> {

	private static final String DURATION_FORMATS = "a number with a unit (500ms, 10s, 2m, 1h, 1d) or ISO-8601 "
			+ "(PT10S), or a ${...} placeholder that resolves to one";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockOperationException cause) {
		String description = String.format("Invalid @DistributedLocked on '%s':%n%n    %s", cause.getMethod(),
				cause.getProblem());
		return new FailureAnalysis(description, action(cause.getAttribute(), shortName(cause.getMethod())), cause);
	}

	private static String action(@Nullable String attribute, String method) {
		if (attribute == null) {
			return "Change " + method + " as described above, or remove @DistributedLocked from it.";
		}
		return "Fix the " + attribute + " attribute of @DistributedLocked on " + method + ": " + hint(attribute) + ".";
	}

	private static String hint(String attribute) {
		return switch (attribute) {
			case "key" -> "use a literal key, or a SpEL expression over the method's parameters (#orderId, #p0), "
					+ "#root or @beans";
			case "ttl" -> "use a duration of at least 1ms and at most " + LockRequest.MAX_TTL.toDays() + "d, as "
					+ DURATION_FORMATS;
			case "waitTime" -> "use a duration of zero or more, as " + DURATION_FORMATS;
			case "fallbackMethod" -> "name another method of the same class, with the same parameter types and a "
					+ "return type assignable to the method's, or remove fallbackMethod";
			case "onFailure" ->
				"use THROW, SKIP on a method with no value to return, or FALLBACK with a " + "fallbackMethod";
			case "fair" -> "remove fair = true";
			default -> "see the description above";
		};
	}

	/**
	 * Return the method as {@code OrderService.pay(long)}: the description has its full
	 * signature.
	 */
	static String shortName(Method method) {
		return ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName()
				+ Arrays.stream(method.getParameterTypes())
					.map(ClassUtils::getShortName)
					.collect(Collectors.joining(", ", "(", ")"));
	}

}
