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

import org.springframework.aop.support.StaticMethodMatcherPointcut;

/**
 * Matches the methods for which the {@link LockOperationSource} has a lock definition.
 */
final class LockOperationSourcePointcut extends StaticMethodMatcherPointcut {

	private final LockOperationSource source;

	LockOperationSourcePointcut(LockOperationSource source) {
		this.source = source;
		setClassFilter(source::isCandidateClass);
	}

	@Override
	public boolean matches(Method method, @Nullable Class<?> targetClass) {
		return this.source.getLockOperation(method, targetClass) != null;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other
				|| (other instanceof LockOperationSourcePointcut that && this.source.equals(that.source)));
	}

	@Override
	public int hashCode() {
		return LockOperationSourcePointcut.class.hashCode();
	}

	@Override
	public String toString() {
		return getClass().getName() + ": " + this.source;
	}

}
