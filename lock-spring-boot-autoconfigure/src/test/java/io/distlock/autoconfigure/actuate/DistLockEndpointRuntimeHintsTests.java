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
package io.distlock.autoconfigure.actuate;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.distlock.LockTemplate;
import io.distlock.autoconfigure.actuate.ForceReleasingLocksEndpoint.ForceReleaseDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.HeldLockDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.HeldLocksDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.LockStateDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint.RefusalDescriptor;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.env.MapPropertySource;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the runtime hints of the {@code locks} endpoint, as the AOT processing of an
 * application with {@link DistLockEndpointAutoConfiguration} collects them.
 */
class DistLockEndpointRuntimeHintsTests {

	@Test
	void givenAnExposedEndpointWhenProcessedAheadOfTimeThenTheForceReleaseOperationCanBeInvoked() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ForceReleasingLocksEndpoint.class, "forceRelease")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ForceReleaseDescriptor.class, "released"))
			.accepts(hints);
	}

	@Test
	void givenAnExposedEndpointWhenProcessedAheadOfTimeThenTheAnswersOfTheOperationsOnOneKeyCanBeWritten() {
		// Their operations answer a WebEndpointResponse<?>, whose body type the
		// operations' own processing cannot see.
		RuntimeHints hints = processAheadOfTime();
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LockStateDescriptor.class, "key"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ForceReleaseDescriptor.class, "key"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RefusalDescriptor.class, "message"))
			.accepts(hints);
	}

	@Test
	void givenAnExposedEndpointWhenProcessedAheadOfTimeThenTheReadOperationsAndTheirResponsesCanBeUsed() {
		// Spring Boot's own processing of the endpoint bean covers these.
		RuntimeHints hints = processAheadOfTime();
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LocksEndpoint.class, "locks")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LocksEndpoint.class, "lock")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HeldLocksDescriptor.class, "locks"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HeldLockDescriptor.class, "leaseRemaining"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LockStateDescriptor.class, "permitHolders"))
			.accepts(hints);
	}

	private static RuntimeHints processAheadOfTime() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("test", Map.of("management.endpoints.web.exposure.include", "locks")));
			context.register(LockTemplateConfiguration.class, DistLockEndpointAutoConfiguration.class);
			DefaultGenerationContext generationContext = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get(DistLockEndpointRuntimeHintsTests.class)),
					new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
			return generationContext.getRuntimeHints();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class LockTemplateConfiguration {

		@Bean
		LockTemplate lockTemplate() {
			// AOT processing reads bean definitions; it creates no bean.
			throw new IllegalStateException("Not created during AOT processing");
		}

	}

}
