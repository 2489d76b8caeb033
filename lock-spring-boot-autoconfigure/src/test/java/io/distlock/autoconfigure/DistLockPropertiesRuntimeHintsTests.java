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
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that Spring Boot's AOT processing of {@code @ConfigurationProperties} beans,
 * which distlock relies on instead of hints of its own, reaches every property of
 * {@link DistLockProperties}, nested groups included.
 */
class DistLockPropertiesRuntimeHintsTests {

	@Test
	void givenBootsBindingHintsWhenRegisteredThenEverySetterOfEveryGroupCanBeInvoked() {
		RuntimeHints hints = new RuntimeHints();
		// What ConfigurationPropertiesBeanFactoryInitializationAotProcessor does for the
		// properties bean.
		BindableRuntimeHintsRegistrar.forTypes(DistLockProperties.class).registerHints(hints);
		List<Method> setters = Stream
			.concat(Stream.of(DistLockProperties.class), Arrays.stream(DistLockProperties.class.getDeclaredClasses()))
			.flatMap((type) -> Arrays.stream(type.getDeclaredMethods()))
			.filter((method) -> Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("set"))
			.toList();
		assertThat(setters).extracting((setter) -> setter.getDeclaringClass().getSimpleName())
			.contains("DistLockProperties", "Redlock", "Replication", "Observation", "Actuator", "Leader");
		assertThat(setters)
			.allSatisfy((setter) -> assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(setter))
				.as("invocation hint for %s", setter)
				.accepts(hints));
	}

}
