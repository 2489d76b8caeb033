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
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockExpressionRuntimeHints}.
 */
class LockExpressionRuntimeHintsTests {

	@Test
	void givenTheDeclaredRegistrarsWhenHintsAreCollectedThenEveryRootObjectPropertyCanBeRead() {
		RuntimeHints hints = new RuntimeHints();
		SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)
			.forEach((registrar) -> registrar.registerHints(hints, getClass().getClassLoader()));
		List<Method> getters = Arrays.stream(LockExpressionRootObject.class.getDeclaredMethods())
			.filter((method) -> Modifier.isPublic(method.getModifiers()))
			.toList();
		assertThat(getters).extracting(Method::getName)
			.contains("getMethod", "getMethodName", "getArgs", "getTarget", "getTargetClass");
		assertThat(getters)
			.allSatisfy((getter) -> assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(getter))
				.as("invocation hint for %s", getter)
				.accepts(hints));
	}

	@Test
	void givenNoHintsWhenARootObjectPropertyIsCheckedThenItCannotBeRead() {
		assertThat(
				RuntimeHintsPredicates.reflection().onMethodInvocation(LockExpressionRootObject.class, "getMethodName"))
			.rejects(new RuntimeHints());
	}

}
