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

import org.jspecify.annotations.Nullable;

import io.distlock.annotation.DistributedLocked;

/**
 * Thrown when a {@link DistributedLocked} annotation cannot be turned into a
 * {@link LockOperation}: an attribute holds a bad value, or the annotated method cannot
 * be locked at all. Thrown when the proxy is created, so the application fails to start.
 *
 * <p>
 * The message names the method, the attribute and the bad value:
 * {@code Invalid @DistributedLocked on 'public void OrderService.pay(long)': ttl 'abc' is
 * not a valid duration; ...}.
 *
 * @see AnnotationLockOperationSource
 */
public class InvalidLockOperationException extends IllegalStateException {

	private final Method method;

	private final @Nullable String attribute;

	private final String problem;

	/**
	 * Create a new exception for an invalid annotation on the given method.
	 * @param method the annotated method
	 * @param attribute the attribute of {@link DistributedLocked} at fault, or
	 * {@code null} if the method itself cannot be locked
	 * @param problem what is wrong, naming the attribute and its value
	 */
	public InvalidLockOperationException(Method method, @Nullable String attribute, String problem) {
		super("Invalid @DistributedLocked on '" + method + "': " + problem);
		this.method = method;
		this.attribute = attribute;
		this.problem = problem;
	}

	/**
	 * Return the annotated method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Return the attribute of {@link DistributedLocked} at fault, such as {@code ttl} or
	 * {@code key}.
	 * @return the attribute name, or {@code null} if the method itself cannot be locked
	 * (it is private or final, or its return type cannot hold a lock)
	 */
	public @Nullable String getAttribute() {
		return this.attribute;
	}

	/**
	 * Return what is wrong, without the method: the message is this, prefixed with the
	 * method.
	 * @return the problem
	 */
	public String getProblem() {
		return this.problem;
	}

}
