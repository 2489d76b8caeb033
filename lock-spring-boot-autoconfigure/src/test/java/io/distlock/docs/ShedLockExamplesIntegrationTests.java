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

package io.distlock.docs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.HeldLock;
import io.distlock.LockContext;
import io.distlock.LockTemplate;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.DistLockMetricsAutoConfiguration;
import io.distlock.autoconfigure.DistLockShedLockAutoConfiguration;
import io.distlock.shedlock.DistlockLockProvider;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the "Coming from ShedLock" example in a Spring Boot application on a real
 * redis-server: {@code @EnableSchedulerLock} and {@code @SchedulerLock} unchanged, with
 * distlock as the lock provider.
 */
class ShedLockExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockShedLockAutoConfiguration.class, ObservationAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, DistLockMetricsAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port())
		.withUserConfiguration(JobsConfiguration.class);

	@Test
	void schedulerLockJobRunsOnceUnderADistlockLockWithAFencingTokenAndIsMeasured() {
		this.contextRunner.run((context) -> {
			assertThat(context).getBean(LockProvider.class).isInstanceOf(DistlockLockProvider.class);
			NightlyReport report = context.getBean(NightlyReport.class);

			report.run();
			// Within lockAtLeastFor: this instance, like any other, skips the run.
			report.run();

			assertThat(report.writtenWithTokens()).singleElement().satisfies((token) -> assertThat(token).isPositive());
			Long pttl = context.getBean(StringRedisTemplate.class)
				.getExpire("lock:nightly-report", TimeUnit.MILLISECONDS);
			assertThat(pttl).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1).toMillis());
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.find("distlock.lock").tag("distlock.lock.name", "nightly-report").timers())
				.extracting((timer) -> timer.getId().getTag("distlock.lock.outcome"))
				.contains("acquired", "busy");
		});
	}

	@Test
	void runningJobIsListedWithTheApplicationsHeldLocks() {
		this.contextRunner.run((context) -> {
			ProbingJob job = context.getBean(ProbingJob.class);
			job.run();
			assertThat(job.heldWhileRunning()).singleElement().satisfies((held) -> {
				assertThat(held.key()).isEqualTo("probe");
				assertThat(held.name()).isEqualTo("probe");
				assertThat(held.autoRenew()).isFalse();
			});
			assertThat(context.getBean(LockTemplate.class).getEngine().getHeldLocks()).isEmpty();
		});
	}

	@Test
	void applicationsOwnLockProviderIsKept() {
		this.contextRunner.withBean(LockProvider.class, () -> (configuration) -> Optional.empty())
			.run((context) -> assertThat(context).getBean(LockProvider.class)
				.isNotInstanceOf(DistlockLockProvider.class));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableSchedulerLock(defaultLockAtMostFor = "10m")
	static class JobsConfiguration {

		@Bean
		NightlyReport nightlyReport() {
			return new NightlyReport();
		}

		@Bean
		ProbingJob probingJob(LockTemplate lockTemplate) {
			return new ProbingJob(lockTemplate);
		}

	}

	static class ProbingJob {

		private final LockTemplate lockTemplate;

		private final List<HeldLock> heldWhileRunning = new ArrayList<>();

		ProbingJob(LockTemplate lockTemplate) {
			this.lockTemplate = lockTemplate;
		}

		@SchedulerLock(name = "probe")
		public void run() {
			assertThat(LockContext.require().key()).isEqualTo("probe");
			this.heldWhileRunning.addAll(this.lockTemplate.getEngine().getHeldLocks());
		}

		public List<HeldLock> heldWhileRunning() {
			return this.heldWhileRunning;
		}

	}

}
