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

package io.distlock.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RedisConnections;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link MicrometerLockListener} on a real redis-server.
 */
class MicrometerLockListenerIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private LettuceConnectionFactory connectionFactory;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.template = new LockTemplate(new RedisLockClient(this.connectionFactory));
		this.template.setLockListeners(List.of(new MicrometerLockListener(this.registry)));
	}

	@AfterEach
	void destroy() {
		this.connectionFactory.destroy();
	}

	@Test
	void metersAreTaggedWithTheLockNameNeverTheKey() {
		LockRequest orders = LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO).withName("orders");
		try (LockHandle handle = this.template.tryAcquire(orders).orElseThrow()) {
			assertThat(this.template.tryAcquire(orders)).isEmpty();
		}
		this.template.tryAcquire("report", Duration.ofSeconds(10), Duration.ZERO).orElseThrow().close();
		assertThat(this.registry.get("distlock.lock.acquisitions")
			.tags("name", "orders", "result", "acquired")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("distlock.lock.acquisitions")
			.tags("name", "orders", "result", "busy")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("distlock.lock.held").tags("name", "orders", "result", "released").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get("distlock.lock.held").tags("name", "none", "result", "released").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.getMeters()).allSatisfy(
				(meter) -> assertThat(meter.getId().getTags()).noneMatch((tag) -> tag.getValue().contains("order:")));
	}

	@Test
	void acquisitionsHoldsAndBusyLocksAreRecordedWithoutKeys() {
		try (LockHandle handle = this.template.tryAcquire("order:42", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.registry.get("distlock.lock.active").gauge().value()).isEqualTo(1);
			assertThat(this.template.tryAcquire("order:42", Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
		}
		assertThat(this.registry.get("distlock.lock.acquisitions").tag("result", "acquired").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get("distlock.lock.acquisitions").tag("result", "busy").timer().count()).isEqualTo(1);
		assertThat(this.registry.get("distlock.lock.held").tag("result", "released").timer().count()).isEqualTo(1);
		assertThat(this.registry.get("distlock.lock.active").gauge().value()).isZero();
		assertThat(this.registry.getMeters()).allSatisfy(
				(meter) -> assertThat(meter.getId().getTags()).noneMatch((tag) -> tag.getValue().contains("order")));
	}

	@Test
	void everyAcquisitionEndsOnceWhetherReleasedLostOrFailingToRelease() {
		assumeThat(redis.endpoint().isControllable()).isTrue();
		List<LockHandle> released = acquire("released", 3);
		List<LockHandle> lost = acquire("lost", 2);
		List<LockHandle> failing = acquire("failing", 2);
		assertThat(this.registry.get("distlock.lock.active").gauge().value()).isEqualTo(7);
		lost.forEach((handle) -> redis.endpoint().command("DEL", "lock:" + handle.key()));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.registry.get("distlock.lock.lost").counter().count() == lost.size());
		released.forEach(LockHandle::close);
		lost.forEach(LockHandle::close);
		redis.endpoint().stop();
		for (LockHandle handle : failing) {
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(handle::close);
		}
		assertThat(this.registry.get("distlock.lock.active").gauge().value()).isZero();
		assertThat(this.registry.get("distlock.lock.held").timers()).map(Timer::count)
			.as("held timer counts, by result")
			.containsExactlyInAnyOrder(3L, 2L, 2L);
		// Closing again ends nothing twice.
		lost.forEach(LockHandle::close);
		failing.forEach(LockHandle::close);
		assertThat(this.registry.get("distlock.lock.active").gauge().value()).isZero();
		assertThat(this.registry.get("distlock.lock.held").timers().stream().mapToLong(Timer::count).sum())
			.isEqualTo(7);
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
