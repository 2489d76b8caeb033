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

package io.distlock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.reactive.ReactiveLockHandle;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link DistributedLocked} methods returning a {@link Mono} or a
 * {@link Flux}, on a real redis-server: nothing is locked until subscription, and the
 * lock is held until the publisher terminates.
 */
@SpringBootTest(classes = DistributedLockedReactiveIntegrationTests.TestApplication.class)
@DirtiesContext
class DistributedLockedReactiveIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		registry.add("spring.data.redis.timeout", () -> "2s");
	}

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockTemplate lockTemplate;

	@BeforeEach
	void resetCounters() {
		Inventory.calls.set(0);
		Inventory.inside.set(0);
		Inventory.overlaps.set(0);
	}

	@Test
	void secondSubscriberCannotEnterWhileTheFirstsMonoOutlastsTheTtl() {
		AtomicLong firstDoneAt = new AtomicLong();
		Disposable first = this.inventory.reserve("sku-1", Duration.ofSeconds(3))
			.doOnSuccess((v) -> firstDoneAt.set(System.nanoTime()))
			.subscribe();
		await().atMost(TIMEOUT).until(() -> Inventory.inside.get() == 1);
		// Past the ttl of 1s the lock is still held: it was renewed.
		await().pollDelay(Duration.ofMillis(1500)).atMost(TIMEOUT).until(() -> true);
		assertThat(first.isDisposed()).isFalse();
		assertThat(redis.endpoint().command("EXISTS", "lock:reserve:sku-1")).isEqualTo(1L);
		long secondStart = System.nanoTime();
		String second = this.inventory.reserve("sku-1", Duration.ZERO).block(TIMEOUT);
		assertThat(second).isEqualTo("reserved sku-1");
		// The second caller came while the first's work ran, and waited for its end.
		assertThat(firstDoneAt.get()).isGreaterThan(secondStart);
		assertThat(Inventory.overlaps).hasValue(0);
		assertThat(redis.endpoint().command("EXISTS", "lock:reserve:sku-1")).isEqualTo(0L);
	}

	@Test
	void monoThatIsNeverSubscribedTakesNoLockAndDoesNotRunTheMethod() {
		Mono<String> reservation = this.inventory.reserve("lazy", Duration.ZERO);
		assertThat(reservation).isNotNull();
		assertThat(Inventory.calls).hasValue(0);
		assertThat(redis.endpoint().command("EXISTS", "lock:reserve:lazy")).isEqualTo(0L);
	}

	@Test
	void subscribingTwiceLocksTwiceAndRunsTheMethodTwice() {
		Mono<Long> token = this.inventory.token("twice");
		long first = token.block(TIMEOUT);
		long second = token.block(TIMEOUT);
		assertThat(second).isGreaterThan(first);
		assertThat(Inventory.calls).hasValue(2);
	}

	@Test
	void lockIsReleasedWhenTheMonoFails() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.inventory.failing("failing").block(TIMEOUT))
			.withMessage("out of stock");
		assertThat(redis.endpoint().command("EXISTS", "lock:failing")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheSubscriberCancels() {
		Disposable subscription = this.inventory.forever("cancelled").subscribe();
		await().atMost(TIMEOUT).until(() -> Inventory.calls.get() == 1);
		assertThat(redis.endpoint().command("EXISTS", "lock:cancelled")).isEqualTo(1L);
		subscription.dispose();
		await().atMost(TIMEOUT).until(() -> redis.endpoint().command("EXISTS", "lock:cancelled").equals(0L));
	}

	@Test
	void fluxHoldsTheLockUntilItCompletes() {
		List<Object> heldWhileEmitting = new ArrayList<>();
		List<Integer> values = this.inventory.stream("stream")
			.doOnNext((v) -> heldWhileEmitting.add(redis.endpoint().command("EXISTS", "lock:stream")))
			.collectList()
			.block(TIMEOUT);
		assertThat(values).containsExactly(1, 2, 3);
		assertThat(heldWhileEmitting).containsExactly(1L, 1L, 1L);
		assertThat(redis.endpoint().command("EXISTS", "lock:stream")).isEqualTo(0L);
	}

	@Test
	void busyLockWithThrowGivesAnErrorSignalAndTheMethodDoesNotRun() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("reserve:busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			Mono<String> reservation = this.inventory.reserveOrFail("busy");
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> reservation.block(TIMEOUT));
		}
		assertThat(Inventory.calls).hasValue(0);
	}

	@Test
	void busyLockWithSkipGivesAnEmptyMonoAndAnEmptyFlux() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("skipped", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.inventory.skipIfBusy("skipped").blockOptional(TIMEOUT)).isEmpty();
			assertThat(this.inventory.streamOrSkip("skipped").collectList().block(TIMEOUT)).isEmpty();
		}
		assertThat(Inventory.calls).hasValue(0);
	}

	@Test
	void busyLockWithAFallbackGivesTheFallbacksMono() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("fallback", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.inventory.withFallback("fallback").block(TIMEOUT)).isEqualTo("fallback for fallback");
		}
		assertThat(this.inventory.withFallback("fallback").block(TIMEOUT)).isEqualTo("locked fallback");
	}

	@Test
	void methodSeesItsLockInTheReactorContext() {
		assertThat(this.inventory.tokenFromContext("context").block(TIMEOUT)).isPositive();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Inventory inventory() {
			return new Inventory();
		}

	}

	static class Inventory {

		// Static: the test reads them through the proxy, which has fields of its own.
		static final AtomicInteger calls = new AtomicInteger();

		static final AtomicInteger inside = new AtomicInteger();

		static final AtomicInteger overlaps = new AtomicInteger();

		@DistributedLocked(name = "reserve", key = "#sku", ttl = "1s", waitTime = "20s")
		public Mono<String> reserve(String sku, Duration work) {
			calls.incrementAndGet();
			return Mono.fromRunnable(() -> {
				if (inside.incrementAndGet() != 1) {
					overlaps.incrementAndGet();
				}
			}).then(Mono.delay(work)).then(Mono.fromSupplier(() -> {
				inside.decrementAndGet();
				return "reserved " + sku;
			}));
		}

		@DistributedLocked(name = "reserve", key = "#sku", ttl = "10s")
		public Mono<String> reserveOrFail(String sku) {
			calls.incrementAndGet();
			return Mono.just("reserved " + sku);
		}

		@DistributedLocked(key = "#key", ttl = "10s")
		public Mono<Long> token(String key) {
			calls.incrementAndGet();
			return ReactiveLockTemplate.currentLock().map(ReactiveLockHandle::fencingToken);
		}

		@DistributedLocked(key = "#key", ttl = "10s")
		public Mono<Long> tokenFromContext(String key) {
			return ReactiveLockTemplate.currentLock(key).map(ReactiveLockHandle::fencingToken);
		}

		@DistributedLocked(key = "#key", ttl = "10s")
		public Mono<String> failing(String key) {
			return Mono.error(new IllegalStateException("out of stock"));
		}

		@DistributedLocked(key = "#key", ttl = "10s")
		public Mono<String> forever(String key) {
			calls.incrementAndGet();
			return Mono.never();
		}

		@DistributedLocked(key = "#key", ttl = "10s")
		public Flux<Integer> stream(String key) {
			return Flux.just(1, 2, 3).delayElements(Duration.ofMillis(20));
		}

		@DistributedLocked(key = "#key", ttl = "10s", onFailure = LockFailurePolicy.SKIP)
		public Mono<String> skipIfBusy(String key) {
			calls.incrementAndGet();
			return Mono.just("ran");
		}

		@DistributedLocked(key = "#key", ttl = "10s", onFailure = LockFailurePolicy.SKIP)
		public Flux<String> streamOrSkip(String key) {
			calls.incrementAndGet();
			return Flux.just("ran");
		}

		@DistributedLocked(key = "#key", ttl = "10s", fallbackMethod = "fallback")
		public Mono<String> withFallback(String key) {
			return Mono.just("locked fallback");
		}

		public Mono<String> fallback(String key) {
			return Mono.just("fallback for " + key);
		}

	}

}
