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

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.distlock.annotation.DistributedLocked;
import io.distlock.observation.DefaultLockObservationConvention;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

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
	void everyLockNameOfTheAnnotatedMethodsHasItsLostCounterAndWaitingGaugeAtZeroFromStartup() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withUserConfiguration(InvoicingConfiguration.class)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				for (String name : List.of("invoices", "DistLockMetricsAutoConfigurationTests.Invoicing.ship")) {
					assertThat(registry.find("distlock.lock.lost")
						.tag(DefaultLockObservationConvention.LOCK_NAME, name)
						.tag(DefaultLockObservationConvention.PHASE, "hold")
						.counter()).as(name).isNotNull().satisfies((counter) -> assertThat(counter.count()).isZero());
					assertThat(registry.find(WaitingLocksMeters.WAITING)
						.tag(DefaultLockObservationConvention.LOCK_NAME, name)
						.gauge()).as(name).isNotNull().satisfies((gauge) -> assertThat(gauge.value()).isZero());
				}
				assertThat(registry.get("distlock.lock.lost").counters()).hasSize(2);
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

	@Configuration(proxyBeanMethods = false)
	static class InvoicingConfiguration {

		@Bean
		Invoicing invoicing() {
			return new Invoicing();
		}

	}

	static class Invoicing {

		@DistributedLocked(name = "invoices", key = "#id")
		public void invoice(long id) {
		}

		@DistributedLocked(key = "#id")
		public void ship(long id) {
		}

	}

}
