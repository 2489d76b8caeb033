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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the lock meters of an application with Spring Boot's observation and metrics
 * auto-configuration are one vocabulary: every documented meter is there, and no meter
 * name is registered with two types or two sets of tag keys. On a real redis-server.
 */
class DistLockMeterVocabularyIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static final Set<String> TIMER_TAGS = Set.of("distlock.lock.name", "distlock.lock.phase",
			"distlock.lock.outcome", "error");

	private static final Set<String> ACTIVE_TAGS = Set.of("distlock.lock.name", "distlock.lock.phase");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, DataRedisAutoConfiguration.class,
				DistLockAutoConfiguration.class, DistLockMetricsAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port());

	@Test
	void lockMetersAreOneVocabularyWithoutCollisions() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				useLocks(context.getBean(LockTemplate.class), registry);
				assertNoCollisions(registry.getMeters());
				assertThat(registry.get("distlock.lock").timers()).isNotEmpty()
					.allSatisfy((timer) -> assertThat(tagKeys(timer)).isEqualTo(TIMER_TAGS));
				assertThat(registry.get("distlock.lock").timers()).extracting(this::phaseAndOutcome)
					.contains("acquire/acquired", "acquire/busy", "hold/released", "hold/mismatch")
					.doesNotContain("hold/expired");
				assertThat(registry.get("distlock.lock.active").longTaskTimers()).isNotEmpty()
					.allSatisfy((timer) -> assertThat(tagKeys(timer)).isEqualTo(ACTIVE_TAGS));
				assertThat(registry.get("distlock.lock.lost").counters()).isNotEmpty()
					.allSatisfy((counter) -> assertThat(tagKeys(counter)).isEqualTo(ACTIVE_TAGS));
				assertThat(registry.get("distlock.fencing.lead").timeGauge()).isNotNull();
				assertThat(registry.getMeters()).filteredOn((meter) -> meter.getId().getName().startsWith("distlock."))
					.allSatisfy((meter) -> assertThat(meter.getId().getTags())
						.noneMatch((tag) -> tag.getValue().contains(":")));
			});
	}

	@Test
	void lockMetersHaveDistinctPrometheusNames() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(PrometheusMetricsExportAutoConfiguration.class))
			.run((context) -> {
				PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
				List<String> failures = new ArrayList<>();
				registry.config().onMeterRegistrationFailed((id, reason) -> failures.add(id + ": " + reason));
				useLocks(context.getBean(LockTemplate.class), registry);
				assertThat(failures).isEmpty();
				assertNoCollisions(registry.getMeters());
				String scrape = registry.scrape();
				assertThat(scrape).contains("distlock_lock_seconds_count{", "distlock_lock_active_seconds",
						"distlock_lock_lost_total{", "distlock_fencing_lead_seconds");
				assertThat(scrape).doesNotContain("distlock_lock_acquisitions", "distlock_lock_held",
						"distlock_outcome");
			});
	}

	@Test
	void theLostCounterOfAnAnnotatedLockNameExistsAtZeroFromStartupAndALossCountsOnIt() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(PrometheusMetricsExportAutoConfiguration.class))
			.withUserConfiguration(ReportsConfiguration.class)
			.run((context) -> {
				PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
				List<String> failures = new ArrayList<>();
				registry.config().onMeterRegistrationFailed((id, reason) -> failures.add(id + ": " + reason));
				assertThat(registry.scrape()).contains(
						"distlock_lock_lost_total{distlock_lock_name=\"reports\",distlock_lock_phase=\"hold\"} 0.0",
						"distlock_lock_waiting{distlock_lock_name=\"reports\"} 0.0");
				LockTemplate template = context.getBean(LockTemplate.class);
				// Renewed every 300ms: the removed key is soon found gone.
				LockHandle lost = template
					.tryAcquire(LockRequest.of("reports:7", Duration.ofMillis(900), Duration.ZERO).withName("reports"))
					.orElseThrow();
				redis.endpoint().command("DEL", LockTemplate.DEFAULT_KEY_PREFIX + "reports:7");
				await().atMost(Duration.ofSeconds(5))
					.until(() -> registry.get("distlock.lock.lost")
						.tag("distlock.lock.name", "reports")
						.counter()
						.count() == 1.0);
				lost.close();
				assertThat(registry.get("distlock.lock.lost").tag("distlock.lock.name", "reports").counters())
					.hasSize(1);
				assertThat(failures).isEmpty();
				assertNoCollisions(registry.getMeters());
			});
	}

	/**
	 * Take and release locks so that every lock meter is made: an acquisition, a busy
	 * one, a release, and a lock found lost and then released too late.
	 */
	private void useLocks(LockTemplate template, MeterRegistry registry) {
		LockRequest orders = LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO).withName("orders");
		try (LockHandle handle = template.tryAcquire(orders).orElseThrow()) {
			assertThat(template.tryAcquire(orders)).isEmpty();
		}
		// Renewed every 300ms: the removed key is soon found gone.
		LockHandle lost = template.tryAcquire("report:7", Duration.ofMillis(900), Duration.ZERO).orElseThrow();
		redis.endpoint().command("DEL", LockTemplate.DEFAULT_KEY_PREFIX + "report:7");
		await().atMost(Duration.ofSeconds(5)).until(() -> registry.find("distlock.lock.lost").counter() != null);
		lost.close();
	}

	private static void assertNoCollisions(List<Meter> meters) {
		Map<String, Set<Meter.Type>> types = new HashMap<>();
		Map<String, Set<Set<String>>> tagKeySets = new HashMap<>();
		for (Meter meter : meters) {
			String name = meter.getId().getName();
			types.computeIfAbsent(name, (n) -> new HashSet<>()).add(meter.getId().getType());
			tagKeySets.computeIfAbsent(name, (n) -> new HashSet<>()).add(tagKeys(meter));
		}
		assertThat(types).as("meter types by name").allSatisfy((name, byName) -> assertThat(byName).hasSize(1));
		assertThat(tagKeySets).as("tag keys by meter name").allSatisfy((name, byName) -> assertThat(byName).hasSize(1));
		assertThat(types).containsEntry("distlock.lock", Set.of(Meter.Type.TIMER))
			.containsEntry("distlock.lock.active", Set.of(Meter.Type.LONG_TASK_TIMER))
			.containsEntry("distlock.lock.lost", Set.of(Meter.Type.COUNTER))
			.containsEntry("distlock.fencing.lead", Set.of(Meter.Type.GAUGE))
			.containsEntry("distlock.lease.renewing", Set.of(Meter.Type.GAUGE))
			.containsEntry("distlock.lease.backlog", Set.of(Meter.Type.GAUGE));
		assertThat(meters).filteredOn((meter) -> meter.getId().getName().startsWith("distlock."))
			.allSatisfy((meter) -> assertThat(meter).isInstanceOfAny(Timer.class, LongTaskTimer.class, Counter.class,
					TimeGauge.class, Gauge.class));
	}

	private static Set<String> tagKeys(Meter meter) {
		return meter.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toCollection(TreeSet::new));
	}

	private String phaseAndOutcome(Timer timer) {
		return timer.getId().getTag("distlock.lock.phase") + "/" + timer.getId().getTag("distlock.lock.outcome");
	}

	@Configuration(proxyBeanMethods = false)
	static class ReportsConfiguration {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		@DistributedLocked(name = "reports", key = "#id")
		public void generate(long id) {
		}

	}

}
