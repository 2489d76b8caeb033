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

package io.distlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockSettings;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationContext;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests of the observations {@link LockTemplate} records on a real
 * redis-server: one for waiting for a lock, one for holding it.
 */
class LockTemplateObservationIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint()).withoutReleaseNotifier().observationRegistry(this.registry).build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() {
		this.stack.close();
	}

	@Test
	void lockedCodeIsObservedWaitingAndHoldingWithItsNameAndOutcome() {
		// When
		AtomicReference<Observation> current = new AtomicReference<>();
		long token = this.template.execute(LockRequest.of("order:42", TTL, Duration.ZERO).withName("orders"),
				(lock) -> {
					current.set(this.registry.getCurrentObservation());
					return lock.fencingToken();
				});

		// Then: two observations, stopped, tagged with the name and the outcome.
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME, 2)
			.forAllObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME,
					(observation) -> observation.hasLowCardinalityKeyValue("distlock.lock.name", "orders")
						.hasHighCardinalityKeyValue("distlock.fencing.token", String.valueOf(token))
						.doesNotHaveHighCardinalityKeyValueWithKey("distlock.lock.key")
						.doesNotHaveError())
			.hasHandledContextsThatSatisfy((contexts) -> {
				List<LockObservationContext> locks = contexts.stream().map(LockObservationContext.class::cast).toList();
				assertThat(locks).extracting(LockObservationContext::getPhase)
					.containsExactly(LockObservationContext.Phase.ACQUIRE, LockObservationContext.Phase.HOLD);
				assertThat(locks).extracting(LockObservationContext::getOutcome)
					.containsExactly("acquired", "released");
				assertThat(locks).extracting(LockObservationContext::getContextualName)
					.containsExactly("lock acquire orders", "lock hold orders");
			});
		// Spans of the locked code are children of the one of holding the lock.
		assertThat(current.get()).isNotNull();
		assertThat(current.get().getContext()).isInstanceOfSatisfying(LockObservationContext.class,
				(context) -> assertThat(context.getPhase()).isEqualTo(LockObservationContext.Phase.HOLD));
	}

	@Test
	void busyLockIsObservedAsABusyAcquisitionOnly() {
		try (LockHandle holder = this.template.tryAcquire("busy", TTL, Duration.ZERO).orElseThrow()) {
			this.registry.clear();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> this.template.execute("busy", TTL, Duration.ZERO, () -> "ran"));
		}
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME, 1)
			.hasObservationWithNameEqualTo(DefaultLockObservationConvention.NAME)
			.that()
			.hasBeenStarted()
			.hasBeenStopped()
			.hasLowCardinalityKeyValue("distlock.lock.phase", "acquire")
			.hasLowCardinalityKeyValue("distlock.lock.outcome", "busy")
			.hasLowCardinalityKeyValue("distlock.lock.name", "none");
	}

	@Test
	void keyIsOnSpansOnlyWhenTheConventionIncludesIt() {
		this.template = this.stack.template(LockSettings.builder()
			.observationRegistry(this.registry)
			.observationConvention(new DefaultLockObservationConvention(true))
			.build());
		this.template.execute("order:7", TTL, Duration.ZERO, () -> "ran");
		TestObservationRegistryAssert.assertThat(this.registry)
			.forAllObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME,
					(observation) -> observation.hasHighCardinalityKeyValue("distlock.lock.key", "order:7")
						.doesNotHaveLowCardinalityKeyValueWithKey("distlock.lock.key"));
	}

	@Test
	void unreachableRedisIsObservedAsAFailedAcquisitionWithItsError() {
		redis.endpoint().command("CLIENT", "PAUSE", "3000", "ALL");
		try (LockStack impatientStack = LockStack.on(redis.endpoint())
			.commandTimeout(Duration.ofMillis(300))
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.observationRegistry(this.registry)
			.build()) {
			LockTemplate impatient = impatientStack.template();
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> impatient.execute("down", TTL, Duration.ZERO, () -> "ran"));
			TestObservationRegistryAssert.assertThat(this.registry)
				.hasObservationWithNameEqualTo(DefaultLockObservationConvention.NAME)
				.that()
				.hasLowCardinalityKeyValue("distlock.lock.outcome", "failed")
				.hasError();
		}
	}

}
