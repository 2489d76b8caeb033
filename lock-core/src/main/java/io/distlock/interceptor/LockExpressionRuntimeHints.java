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

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Lets key expressions read {@code #root.methodName} and the other properties of
 * {@link LockExpressionRootObject} in a native image, where SpEL finds and calls its
 * getters by reflection. Declared in {@code META-INF/spring/aot.factories}.
 *
 * <p>
 * The types of the method's arguments that a key navigates ({@code #order.customer.id})
 * are registered per annotated method, see {@code DistributedLockedReflectiveProcessor}.
 */
class LockExpressionRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection().registerType(LockExpressionRootObject.class, MemberCategory.INVOKE_PUBLIC_METHODS);
	}

}
