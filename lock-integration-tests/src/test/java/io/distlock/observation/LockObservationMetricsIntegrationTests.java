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

package io.distlock.observation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static io.distlock.observation.DefaultLockObservationConvention.LOCK_NAME;
import static io.distlock.observation.DefaultLockObservationConvention.OUTCOME;
import static io.distlock.observation.DefaultLockObservationConvention.PHASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for the lock meters that the lock observations make through
 * Micrometer's {@link DefaultMeterObservationHandler}, on a real redis-server.
 */
class LockObservationMetricsIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		ObservationRegistry observationRegistry = ObservationRegistry.create();
		observationRegistry.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.registry));
		this.stack = LockStack.on(redis.endpoint())
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.observationRegistry(observationRegistry)
			.build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroy() {
		this.stack.close();
	}

	@Test
	void metersAreTaggedWithTheLockNameNeverTheKey() {
		LockRequest orders = LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO).withName("orders");
		try (LockHandle handle = this.template.tryAcquire(orders).orElseThrow()) {
			assertThat(this.template.tryAcquire(orders)).isEmpty();
		}
		this.template.tryAcquire("report", Duration.ofSeconds(10), Duration.ZERO).orElseThrow().close();
		assertThat(timer("orders", "acquire", "acquired").count()).isEqualTo(1);
		assertThat(timer("orders", "acquire", "busy").count()).isEqualTo(1);
		assertThat(timer("orders", "hold", "released").count()).isEqualTo(1);
		assertThat(timer("none", "hold", "released").count()).isEqualTo(1);
		assertThat(this.registry.getMeters()).allSatisfy(
				(meter) -> assertThat(meter.getId().getTags()).noneMatch((tag) -> tag.getValue().contains("order:")));
	}

	@Test
	void releaseOfALockNoLongerHeldIsTimedWithOutcomeMismatch() {
		LockHandle handle = this.template.tryAcquire("order:7", Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		redis.endpoint().command("DEL", "lock:order:7");
		handle.close();
		assertThat(this.registry.get("distlock.lock").tags(PHASE, "hold", OUTCOME, "mismatch").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.find("distlock.lock").tags(OUTCOME, "expired").timers()).isEmpty();
	}

	@Test
	void acquisitionsHoldsAndBusyLocksAreRecordedWithoutKeys() {
		try (LockHandle handle = this.template.tryAcquire("order:42", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(activeHolds()).isEqualTo(1);
			assertThat(this.template.tryAcquire("order:42", Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
		}
		assertThat(this.registry.get("distlock.lock").tags(PHASE, "acquire", OUTCOME, "acquired").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get("distlock.lock").tags(PHASE, "acquire", OUTCOME, "busy").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get("distlock.lock").tags(PHASE, "hold", OUTCOME, "released").timer().count())
			.isEqualTo(1);
		assertThat(activeHolds()).isZero();
		assertThat(this.registry.getMeters()).allSatisfy(
				(meter) -> assertThat(meter.getId().getTags()).noneMatch((tag) -> tag.getValue().contains("order")));
	}

	@Test
	void everyAcquisitionEndsOnceWhetherReleasedLostOrFailingToRelease() {
		assumeThat(redis.endpoint().isControllable()).isTrue();
		List<LockHandle> released = acquire("released", 3);
		List<LockHandle> lost = acquire("lost", 2);
		List<LockHandle> failing = acquire("failing", 2);
		assertThat(activeHolds()).isEqualTo(7);
		lost.forEach((handle) -> redis.endpoint().command("DEL", "lock:" + handle.key()));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.registry.find("distlock.lock.lost")
				.counters()
				.stream()
				.mapToDouble((c) -> c.count())
				.sum() == lost.size());
		released.forEach(LockHandle::close);
		lost.forEach(LockHandle::close);
		redis.endpoint().stop();
		for (LockHandle handle : failing) {
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(handle::close);
		}
		assertThat(activeHolds()).isZero();
		assertThat(this.registry.get("distlock.lock").tag(PHASE, "hold").timers()).map(Timer::count)
			.as("hold timer counts, by outcome")
			.containsExactlyInAnyOrder(3L, 2L, 2L);
		// Closing again ends nothing twice.
		lost.forEach(LockHandle::close);
		failing.forEach(LockHandle::close);
		assertThat(activeHolds()).isZero();
		assertThat(
				this.registry.get("distlock.lock").tag(PHASE, "hold").timers().stream().mapToLong(Timer::count).sum())
			.isEqualTo(7);
	}

	private Timer timer(String name, String phase, String outcome) {
		return this.registry.get("distlock.lock").tags(LOCK_NAME, name, PHASE, phase, OUTCOME, outcome).timer();
	}

	private int activeHolds() {
		return this.registry.find("distlock.lock.active")
			.tag(PHASE, "hold")
			.longTaskTimers()
			.stream()
			.mapToInt(LongTaskTimer::activeTasks)
			.sum();
	}

	private List<LockHandle> acquire(String prefix, int count) {
		List<LockHandle> handles = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			// Renewed every 300ms, soon enough to find the removed keys gone; with a
			// shorter ttl, the first renewals in a JVM just started could come too late.
			handles.add(this.template.tryAcquire(prefix + i, Duration.ofMillis(900), Duration.ZERO).orElseThrow());
		}
		return handles;
	}

}
