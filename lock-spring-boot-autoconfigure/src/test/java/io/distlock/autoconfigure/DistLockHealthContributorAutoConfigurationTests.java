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

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistLockHealthContributorAutoConfiguration}'s conditions. No Redis is
 * needed: the contributor is only created, never asked.
 */
class DistLockHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockHealthContributorAutoConfiguration.class))
		// Nothing listens there: the release subscription retries in the background.
		.withPropertyValues("spring.data.redis.port=1");

	@Test
	void contributorIsNamedDistlockForLocksOnSpringDataRedis() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(HealthIndicator.class)
			.getBean("distlockHealthIndicator")
			.isInstanceOf(DistLockHealthIndicator.class));
	}

	@Test
	void contributorBacksOffWithoutSpringBootHealth() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("distlockHealthIndicator"));
	}

	@Test
	void contributorCanBeTurnedOff() {
		this.contextRunner.withPropertyValues("management.health.distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("distlockHealthIndicator"));
	}

	@Test
	void contributorBacksOffWhenLockingIsOff() {
		this.contextRunner.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("distlockHealthIndicator"));
	}

	@Test
	void userDefinedContributorOfTheSameNameReplacesIt() {
		this.contextRunner.withUserConfiguration(UserHealthConfiguration.class)
			.run((context) -> assertThat(context).getBean("distlockHealthIndicator", HealthIndicator.class)
				.isSameAs(context.getBean(UserHealthConfiguration.class).indicator));
	}

	@Test
	void contributorBacksOffForAUserDefinedBeanNamedDistlockHealthContributor() {
		this.contextRunner.withUserConfiguration(UserHealthContributorConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean("distlockHealthIndicator")
				.doesNotHaveBean(DistLockHealthIndicator.class)
				.getBean("distlockHealthContributor", HealthIndicator.class)
				.isSameAs(context.getBean(UserHealthContributorConfiguration.class).contributor));
	}

	@Test
	void contributorBacksOffForAUserDefinedBeanNamedDistlockHealthIndicatorOfAnyType() {
		this.contextRunner.withBean("distlockHealthIndicator", String.class, () -> "replaced")
			.run((context) -> assertThat(context).doesNotHaveBean(DistLockHealthIndicator.class)
				.getBean("distlockHealthIndicator")
				.isEqualTo("replaced"));
	}

	@Test
	void credentialsInAnErrorMessageAreMasked() {
		String described = DistLockHealthIndicator
			.describe(new IllegalStateException("Unable to connect to rediss://alice:s3cret@db.example:6380/0"));
		assertThat(described).doesNotContain("alice", "s3cret")
			.isEqualTo("java.lang.IllegalStateException: Unable to connect to rediss://***@db.example:6380/0");
	}

	@Configuration(proxyBeanMethods = false)
	static class UserHealthConfiguration {

		final HealthIndicator indicator = () -> Health.up().build();

		@Bean
		HealthIndicator distlockHealthIndicator() {
			return this.indicator;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserHealthContributorConfiguration {

		final HealthIndicator contributor = () -> Health.up().build();

		@Bean
		HealthIndicator distlockHealthContributor() {
			return this.contributor;
		}

	}

}
