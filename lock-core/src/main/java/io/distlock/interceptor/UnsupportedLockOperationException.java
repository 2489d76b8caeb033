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
import java.util.List;

import io.distlock.annotation.DistributedLocked;

/**
 * Thrown at startup when the application's lock store cannot serve some of its
 * {@link DistributedLocked} methods, for example fair locks on Redlock: each annotation
 * is valid, but no lock this application can take would honour it.
 *
 * @see LockInterceptor
 */
public class UnsupportedLockOperationException extends IllegalStateException {

	private final Feature feature;

	private final List<Method> methods;

	/**
	 * Create a new exception for methods that need a feature the lock store lacks.
	 * @param feature the feature the methods need
	 * @param methods the methods that need it
	 * @param message the detail message, naming the methods and the reason
	 */
	public UnsupportedLockOperationException(Feature feature, List<Method> methods, String message) {
		super(message);
		this.feature = feature;
		this.methods = List.copyOf(methods);
	}

	/**
	 * Return the feature the methods need and the lock store lacks.
	 * @return the feature
	 */
	public Feature getFeature() {
		return this.feature;
	}

	/**
	 * Return the annotated methods that need the feature.
	 * @return the methods, at least one
	 */
	public List<Method> getMethods() {
		return this.methods;
	}

	/**
	 * A feature of a lock store that some {@link DistributedLocked} methods need.
	 */
	public enum Feature {

		/**
		 * Locks taken in arrival order, for {@code fair = true}.
		 */
		FAIR_LOCKS,

		/**
		 * Locks taken without blocking, for methods returning a {@code Mono} or
		 * {@code Flux} and for suspend functions: a {@code ReactiveLockTemplate}.
		 */
		REACTIVE_LOCKS,

		/**
		 * Keys held for reading, shared among readers, for {@code mode = READ}.
		 */
		READ_LOCKS,

		/**
		 * A key held by a number of callers at once, for {@code permits} above 1.
		 */
		PERMITS

	}

}
