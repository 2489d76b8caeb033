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

	private static final String KEY_FORMS = "use a literal key, or a SpEL expression over the method's parameters "
			+ "(#orderId, #p0), #root or @beans";

	private static final String DURATION_FORMATS = "a number with a unit (500ms, 10s, 2m, 1h, 1d) or ISO-8601 "
			+ "(PT10S), or a ${...} placeholder that resolves to one";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockOperationException cause) {
		String description = String.format("Invalid @DistributedLocked on '%s':%n%n    %s", cause.getMethod(),
				cause.getProblem());
		return new FailureAnalysis(description,
				action(cause.getAttribute(), cause.getProblem(), shortName(cause.getMethod())), cause);
	}

	private static String action(@Nullable String attribute, String problem, String method) {
		if (attribute == null) {
			return "Change " + method + " as described above, or remove @DistributedLocked from it.";
		}
		return "Fix the " + attribute + " attribute of @DistributedLocked on " + method + ": "
				+ hint(attribute, problem) + ".";
	}

	// The problems are the operation source's own words: each check that fails on one
	// of these attributes is told apart by what it says.
	private static String hint(String attribute, String problem) {
		return switch (attribute) {
			case "key" -> KEY_FORMS;
			case "keys" -> keysHint(problem);
			case "mode" -> "use mode = EXCLUSIVE or WRITE, as a reactive or suspend method takes exclusive locks "
					+ "only; or make the method blocking to share a read lock";
			case "permits" -> permitsHint(problem);
			case "minHold" -> minHoldHint(problem);
			case "ttl" -> problem.contains("too short for a lease that is renewed")
					? "use a ttl of at least " + LockRequest.MIN_RENEWED_TTL.toMillis() + "ms with a unit, such as "
							+ "10s, or set autoRenew = false for a lease held for its ttl at most"
					: "use a duration of at least 1ms and at most " + LockRequest.MAX_TTL.toDays() + "d, as "
							+ DURATION_FORMATS;
			case "waitTime" -> "use a duration of zero or more, as " + DURATION_FORMATS;
			case "fallbackMethod" -> "name another method of the same class, with the same parameter types and a "
					+ "return type assignable to the method's, or remove fallbackMethod";
			case "onFailure" ->
				"use THROW, SKIP on a method with no value to return, or FALLBACK with a " + "fallbackMethod";
			case "fair" -> "remove fair = true";
			default -> "change it as the description above says";
		};
	}

	private static String keysHint(String problem) {
		if (problem.contains("cannot be combined: use key for one lock")) {
			return "remove key to lock the keys, or remove keys to lock the one key";
		}
		if (problem.contains("is empty; every element must be a key expression")) {
			return "remove the empty element, or write the key expression it stands for";
		}
		if (problem.startsWith("keys '")) {
			return "correct that element: " + KEY_FORMS + "; a collection or array gives one lock per element";
		}
		if (problem.contains("combined with fair = true")) {
			return "remove fair = true, as several keys are taken in a fixed order and not in arrival order; or "
					+ "lock one key with key instead";
		}
		if (problem.contains("combined with permits")) {
			return "remove permits, or lock one key with key instead, as a concurrency limit is on one key";
		}
		return "lock the keys with LockTemplate.executeAll inside the method, or make it a blocking method, "
				+ "returning neither a CompletionStage, Mono nor Flux and not a suspend function";
	}

	private static String permitsHint(String problem) {
		if (problem.contains("must be at least 1")) {
			return "use permits = 1 for an exclusive lock, or a number above 1 for a concurrency limit";
		}
		if (problem.contains("combined with mode")) {
			return "remove mode for a concurrency limit, or remove permits for a read or write lock";
		}
		if (problem.contains("combined with fair = true")) {
			return "remove fair = true for a concurrency limit, or remove permits for a fair exclusive lock";
		}
		return "remove permits, as a reactive or suspend method takes exclusive locks only; or make the method "
				+ "blocking";
	}

	private static String minHoldHint(String problem) {
		if (problem.contains("without autoRenew")) {
			return "raise the ttl to at least minHold, set autoRenew = true, or shorten minHold";
		}
		if (problem.contains("cannot be combined with keys")) {
			return "remove minHold, or lock one key with key instead of keys, as a minimum hold keeps one lock";
		}
		if (problem.contains("reactive or suspend method")) {
			return "remove minHold, or make the method blocking";
		}
		return "use a duration of zero or more and at most " + LockRequest.MAX_TTL.toDays() + "d, as "
				+ DURATION_FORMATS;
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
