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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;

/**
 * What a locked method returns, which decides how long its lock is held; read once from
 * the method by {@link #of(Method)}.
 */
enum MethodShape {

	/**
	 * Held until the method returns.
	 */
	BLOCKING,

	/**
	 * Held until the returned {@code CompletionStage} completes.
	 */
	STAGE,

	/**
	 * Taken on subscription of the returned {@code Mono} (or the {@code suspend}
	 * function's), held until it terminates.
	 */
	MONO,

	/**
	 * Taken on subscription of the returned {@code Flux} (or {@code Publisher}, or the
	 * {@code Flow} of a {@code suspend} function), held until it terminates.
	 */
	FLUX;

	private static final boolean reactorPresent = ClassUtils.isPresent("reactor.core.publisher.Mono",
			MethodShape.class.getClassLoader());

	// What Spring AOP needs to hand a suspend function's work to interceptors as a Mono.
	private static final boolean coroutinesReactorPresent = reactorPresent
			&& ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", MethodShape.class.getClassLoader());

	/**
	 * Return whether the lock is taken on subscription: {@link #MONO} or {@link #FLUX}.
	 * @return whether the shape is reactive
	 */
	boolean reactive() {
		return this == MONO || this == FLUX;
	}

	/**
	 * Return the shape of the given method.
	 * @param method the annotated method
	 * @return its shape
	 * @throws InvalidLockOperationException if the lock cannot be held across what the
	 * method returns
	 */
	static MethodShape of(Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			if (!coroutinesReactorPresent) {
				throw invalid(method, "it is a suspend function, whose lock is held by the coroutine's Mono: add "
						+ "org.jetbrains.kotlinx:kotlinx-coroutines-reactor, so that Spring AOP gives it one");
			}
			// The Kotlin return type: a Flow is adapted from a Flux.
			return "kotlinx.coroutines.flow.Flow".equals(new MethodParameter(method, -1).getParameterType().getName())
					? FLUX : MONO;
		}
		Class<?> returnType = method.getReturnType();
		// By name: Reactor is optional.
		if (reactorPresent && returnType.getName().equals("reactor.core.publisher.Mono")) {
			return MONO;
		}
		if (reactorPresent && (returnType.getName().equals("reactor.core.publisher.Flux")
				|| returnType.getName().equals("org.reactivestreams.Publisher"))) {
			return FLUX;
		}
		if (reactivePublisher(returnType)) {
			// The proxy returns a Mono or Flux of its own, which another type cannot
			// hold.
			throw invalid(method,
					"the method returns " + returnType.getName()
							+ ", a Publisher the lock cannot be held across; declare Mono, Flux or Publisher as the "
							+ "return type");
		}
		if ("kotlinx.coroutines.flow.Flow".equals(returnType.getName())) {
			throw invalid(method, "the method returns a Flow without being a suspend function, and Spring AOP "
					+ "cannot hold anything across it; return a Flux, or make it a suspend function");
		}
		if (returnType == CompletableFuture.class || returnType == CompletionStage.class) {
			return STAGE;
		}
		if (CompletionStage.class.isAssignableFrom(returnType)) {
			// The proxy returns a CompletableFuture of its own, completed after the
			// release, which another stage type cannot hold.
			throw invalid(method,
					"the method returns " + returnType.getName()
							+ ", a CompletionStage the lock cannot be held across; declare CompletableFuture or "
							+ "CompletionStage as the return type");
		}
		return BLOCKING;
	}

	private static boolean reactivePublisher(Class<?> returnType) {
		for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(returnType)) {
			if (type.getName().equals("org.reactivestreams.Publisher")) {
				return true;
			}
		}
		return false;
	}

	private static InvalidLockOperationException invalid(Method method, String problem) {
		return LockOperationParser.invalid(method, null, problem);
	}

}
