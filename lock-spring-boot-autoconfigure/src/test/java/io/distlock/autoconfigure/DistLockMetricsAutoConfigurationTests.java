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

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistLockMetricsAutoConfiguration}. The lock meters themselves come
 * from the lock observations: see {@link DistLockMeterVocabularyIntegrationTests}.
 */
class DistLockMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockMetricsAutoConfiguration.class));

	@Test
	void meterRegistryGetsTheGaugeOfTheFencingTokensLeadOverTheRedisClock() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(FencingClockMeters.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("distlock.fencing.lead").timeGauge()).isNotNull()
				.satisfies((gauge) -> assertThat(gauge.value()).isZero());
			assertThat(registry.find("distlock.redlock.clock.offset").timeGauge()).isNull();
		});
	}

	@Test
	void metricsBackOffWithoutAMeterRegistry() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(FencingClockMeters.class));
	}

	@Test
	void metricsBackOffWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(FencingClockMeters.class));
	}

	@Test
	void metricsBackOffWhenLocksAreDisabled() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(FencingClockMeters.class));
	}

}
