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
package io.distlock.boot3;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.distlock.LockTemplate;
import io.distlock.autoconfigure.actuate.LocksEndpoint.HeldLocksDescriptor;
import io.distlock.autoconfigure.actuate.LocksEndpoint;
import io.distlock.test.RedisServerExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the parts of the Boot 3 auto-configuration built on the packages Boot 4
 * moved work in a Spring Boot 3.5 application against a real redis-server: the
 * {@code locks} endpoint, the {@code distlock} health indicator, the lock metrics, and
 * locking a reactive method.
 */
@SpringBootTest(classes = Boot3Application.class,
		properties = { "management.endpoints.web.exposure.include=locks",
				"management.endpoint.locks.show-values=always" })
@Import(ActuatorAndReactiveOnBoot3IntegrationTests.Reports.class)
@DirtiesContext
class ActuatorAndReactiveOnBoot3IntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Autowired
	private Ledger ledger;

	@Autowired
	private ReportBuilder reports;

	@Autowired
	private LocksEndpoint locksEndpoint;

	@Autowired
	private HealthIndicator distlockHealthIndicator;

	@Autowired
	private MeterRegistry meterRegistry;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		Boot3Redis.connectTo(redis, registry);
	}

	@Test
	void locksEndpointListsTheLockWhileTheLockedMethodRuns() {
		AtomicReference<HeldLocksDescriptor> during = new AtomicReference<>();
		this.ledger.post(7, () -> during.set(this.locksEndpoint.locks(SecurityContext.NONE)));
		assertThat(during.get().locks()).singleElement()
			.satisfies((held) -> assertThat(held.key()).isEqualTo("ledger:7"));
		assertThat(this.locksEndpoint.locks(SecurityContext.NONE).locks()).isEmpty();
	}

	@Test
	void healthIndicatorIsUpWithTheRedisBackend() {
		assertThat(this.distlockHealthIndicator.health()).satisfies((health) -> {
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("backend", "redis");
		});
	}

	@Test
	void lockedMethodIsTimedInTheMeterRegistry() {
		long acquiredBefore = count("acquire", "acquired");
		long releasedBefore = count("hold", "released");
		this.ledger.post(8, () -> {
		});
		assertThat(count("acquire", "acquired")).isEqualTo(acquiredBefore + 1);
		assertThat(count("hold", "released")).isEqualTo(releasedBefore + 1);
	}

	@Test
	void reactiveLockedMethodHoldsItsLockUntilTheMonoCompletes() {
		String lockKey = LockTemplate.DEFAULT_KEY_PREFIX + "report:9";
		String held = this.reports
			.build(9,
					Mono.fromCallable(() -> String.valueOf(redis.endpoint().command("GET", lockKey)))
						.delaySubscription(Duration.ofMillis(50)))
			.block(Duration.ofSeconds(10));
		assertThat(held).isNotBlank().isNotEqualTo("null");
		assertThat(redis.endpoint().command("EXISTS", lockKey)).isEqualTo(0L);
	}

	@Test
	void reactiveLockedMethodRunsOneSubscriptionAtATime() {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger mostInside = new AtomicInteger();
		// The section ends before the Mono emits: doFinally would run only after the
		// completion went downstream, where the lock's release has already started.
		Mono<String> work = Mono.fromRunnable(() -> mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max))
			.then(Mono.delay(Duration.ofMillis(20)))
			.then(Mono.fromSupplier(() -> {
				inside.decrementAndGet();
				return "done";
			}));
		Long completed = Flux.range(0, 8)
			.flatMap((i) -> this.reports.build(10, work))
			.count()
			.block(Duration.ofSeconds(30));
		assertThat(completed).isEqualTo(8L);
		assertThat(mostInside.get()).isEqualTo(1);
	}

	private long count(String phase, String outcome) {
		return this.meterRegistry.find("distlock.lock")
			.tags("distlock.lock.phase", phase, "distlock.lock.outcome", outcome)
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

	@Configuration(proxyBeanMethods = false)
	static class Reports {

		@Bean
		ReportBuilder reportBuilder() {
			return new ReportBuilder();
		}

	}

}
