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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for the {@code distlock.lock.waiting} gauge on a real redis-server:
 * it counts the callers of this instance waiting for a lock of each name, returns to 0
 * once they have it, and is scraped by Prometheus with the tag the lock meters use.
 */
class WaitingLocksMetersIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
				DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockMetricsAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port());

	@Test
	void gaugeCountsTheCallersWaitingForALockOfEachNameAndReturnsToZero() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			LockRequest request = LockRequest.of("export:3", TTL, Duration.ofSeconds(30)).withName("exports");
			LockHandle held = template.tryAcquire(request).orElseThrow();
			CompletableFuture<Boolean> first = CompletableFuture
				.supplyAsync(() -> template.execute(request, () -> true));
			CompletableFuture<Boolean> second = CompletableFuture
				.supplyAsync(() -> template.execute(request, () -> true));
			await().atMost(Duration.ofSeconds(10)).until(() -> waiting(registry, "exports") == 2);
			assertThat(((PrometheusMeterRegistry) registry).scrape())
				.contains("distlock_lock_waiting{distlock_lock_name=\"exports\"} 2.0");
			held.close();
			assertThat(first.get(20, TimeUnit.SECONDS)).isTrue();
			assertThat(second.get(20, TimeUnit.SECONDS)).isTrue();
			assertThat(waiting(registry, "exports")).isZero();
		});
	}

	@Test
	void unnamedLocksAreCountedAsNone() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			try (LockHandle held = template.tryAcquire("plain", TTL, Duration.ZERO).orElseThrow()) {
				assertThat(template.tryAcquire("plain", TTL, Duration.ofMillis(100))).isEmpty();
			}
			assertThat(waiting(registry, "none")).isZero();
			assertThat(registry.find(WaitingLocksMeters.WAITING).tag("distlock.lock.name", "none").gauge()).isNotNull();
		});
	}

	private static double waiting(MeterRegistry registry, String name) {
		Gauge gauge = registry.find(WaitingLocksMeters.WAITING).tag("distlock.lock.name", name).gauge();
		return (gauge != null) ? gauge.value() : -1;
	}

}
