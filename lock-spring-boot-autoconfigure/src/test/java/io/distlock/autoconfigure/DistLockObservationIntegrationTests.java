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

import java.time.Duration;

import io.distlock.LockTemplate;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.test.RedisServerExtension;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Tests that the auto-configured lock template records its observations in the
 * application's {@link ObservationRegistry}, on a real redis-server.
 */
class DistLockObservationIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
		.withBean(ObservationRegistry.class, TestObservationRegistry::create)
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port());

	@Test
	void locksAreObservedWithoutTheKeyByDefault() {
		this.contextRunner.run((context) -> {
			context.getBean(LockTemplate.class).execute("order:42", Duration.ofSeconds(10), Duration.ZERO, () -> "ran");
			TestObservationRegistryAssert
				.assertThat((TestObservationRegistry) context.getBean(ObservationRegistry.class))
				.hasNumberOfObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME, 2)
				.forAllObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME,
						(observation) -> observation.doesNotHaveHighCardinalityKeyValueWithKey("distlock.lock.key"));
		});
	}

	@Test
	void includeKeyPutsTheKeyOnSpans() {
		this.contextRunner.withPropertyValues("distlock.observation.include-key=true").run((context) -> {
			context.getBean(LockTemplate.class).execute("order:42", Duration.ofSeconds(10), Duration.ZERO, () -> "ran");
			TestObservationRegistryAssert
				.assertThat((TestObservationRegistry) context.getBean(ObservationRegistry.class))
				.forAllObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME,
						(observation) -> observation.hasHighCardinalityKeyValue("distlock.lock.key", "order:42"));
		});
	}

}
