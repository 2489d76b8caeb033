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

package io.distlock.test.autoconfigure;

import org.junit.jupiter.api.Test;

import io.distlock.LockTemplate;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.store.LockClient;
import io.distlock.test.memory.InMemoryLockClient;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link InMemoryLockAutoConfiguration} and for how it stays out of
 * applications that do not ask for it.
 */
class InMemoryLockAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(InMemoryLockAutoConfiguration.class, DistLockAutoConfiguration.class));

	@Test
	void inMemoryStoreIsNoAutoConfigurationCandidateSoOnlyTheAnnotationImportsIt() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
			.contains(LockAssertAutoConfiguration.class.getName())
			.doesNotContain(InMemoryLockAutoConfiguration.class.getName());
	}

	@Test
	void importedItPutsTheTemplatesLocksInMemory() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockClient.class).hasSingleBean(LockTemplate.class);
			assertThat(context.getBean(LockClient.class)).isInstanceOf(InMemoryLockClient.class);
		});
	}

	@Test
	void redisReleaseNotifierIsLeftOutSinceTheStoreWakesWaitersItself() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class)).run((context) -> {
			assertThat(context).hasSingleBean(RedisConnectionFactory.class);
			assertThat(context).doesNotHaveBean("releaseNotifier").doesNotHaveBean(RedisReleaseNotifier.class);
			assertThat(context.getBean(LockClient.class)).isInstanceOf(InMemoryLockClient.class);
		});
	}

	@Test
	void redisReleaseNotifierStaysWithoutTheInMemoryStore() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=1")
			.run((context) -> assertThat(context).hasBean("releaseNotifier"));
	}

	@Test
	void lockClientDefinedByTheTestTakesPrecedence() {
		LockClient own = mock(LockClient.class);
		this.contextRunner.withBean(LockClient.class, () -> own)
			.run((context) -> assertThat(context.getBean(LockClient.class)).isSameAs(own));
	}

}
