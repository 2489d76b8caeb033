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
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Finds the lock definition of a method, if it has one.
 *
 * @see AnnotationLockOperationSource
 */
public interface LockOperationSource {

	/**
	 * Tell whether the class may have locked methods at all, so that most classes are
	 * passed over without looking at their methods.
	 * @param targetClass the class to check
	 * @return {@code false} if no method of the class can be locked
	 */
	default boolean isCandidateClass(Class<?> targetClass) {
		return true;
	}

	/**
	 * Return the lock definition of the method as invoked on the target class.
	 * @param method the method, possibly from an interface
	 * @param targetClass the target class, or {@code null} if unknown
	 * @return the lock definition, or {@code null} if the method is not locked
	 */
	@Nullable LockOperation getLockOperation(Method method, @Nullable Class<?> targetClass);

	/**
	 * Return the lock definitions found so far, so that requirements on the lock store
	 * (such as fair mode) can be checked once the application has started.
	 * @return the definitions parsed so far; empty if the source does not keep them
	 */
	default Collection<LockOperation> getLockOperations() {
		return List.of();
	}

}
