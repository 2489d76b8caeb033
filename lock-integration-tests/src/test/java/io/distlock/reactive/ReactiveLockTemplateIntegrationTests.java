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

package io.distlock.reactive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationContext;
import io.distlock.redis.ReactiveRedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link ReactiveLockTemplate} against a real redis-server: the
 * lock is taken on subscription and held until the publisher terminates.
 */
class ReactiveLockTemplateIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private ReactiveApplication application;

	private LeaseRenewer renewer;

	private LockTemplate blockingTemplate;

	private ReactiveLockTemplate template;

	@BeforeEach
	void createTemplates() {
		this.application = new ReactiveApplication(redis.endpoint());
		this.renewer = this.application.renewer;
		this.blockingTemplate = this.application.blockingTemplate;
		this.template = this.application.template;
	}

	@AfterEach
	void destroyTemplates() {
		this.application.close();
	}

	@Test
	void secondSubscriberCannotEnterWhileTheFirstsMonoOutlastsTheTtl() {
		Duration ttl = Duration.ofSeconds(1);
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicLong firstLeftAt = new AtomicLong();
		AtomicLong secondEnteredAt = new AtomicLong();
		Mono<String> first = this.template.execute("k", ttl, Duration.ZERO,
				work(inside, overlaps, Duration.ofSeconds(3), "first")
					.doOnSuccess((v) -> firstLeftAt.set(System.nanoTime())));
		Disposable running = first.subscribe();
		await().atMost(TIMEOUT).until(() -> inside.get() == 1);
		// Past the ttl, the lock is still held: it was renewed.
		await().pollDelay(ttl.multipliedBy(3).dividedBy(2)).atMost(TIMEOUT).until(() -> true);
		assertThat(running.isDisposed()).isFalse();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(1L);
		String second = this.template.execute("k", ttl, Duration.ofSeconds(30), Mono.fromSupplier(() -> {
			secondEnteredAt.set(System.nanoTime());
			return "second";
		}).flatMap((v) -> work(inside, overlaps, Duration.ZERO, v))).block(TIMEOUT);
		assertThat(second).isEqualTo("second");
		assertThat(overlaps).hasValue(0);
		assertThat(secondEnteredAt.get()).isGreaterThan(firstLeftAt.get());
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void fluxHoldsTheLockUntilItCompletesAndPassesItsValuesThrough() {
		List<Object> held = new ArrayList<>();
		List<Long> values = this.template
			.executeMany("stream", TTL, Duration.ZERO,
					Flux.interval(Duration.ofMillis(50))
						.take(5)
						.doOnNext((v) -> held.add(redis.endpoint().command("EXISTS", "lock:stream"))))
			.collectList()
			.block(TIMEOUT);
		assertThat(values).containsExactly(0L, 1L, 2L, 3L, 4L);
		assertThat(held).containsOnly(1L).hasSize(5);
		assertThat(redis.endpoint().command("EXISTS", "lock:stream")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheMonoFails() {
		IllegalStateException failure = new IllegalStateException("failed");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.template.execute("failing", TTL, Duration.ZERO, Mono.error(failure)).block(TIMEOUT))
			.isSameAs(failure);
		assertThat(redis.endpoint().command("EXISTS", "lock:failing")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheFluxFailsAfterSomeValues() {
		List<Integer> seen = new ArrayList<>();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.template
			.executeMany("failing-flux", TTL, Duration.ZERO,
					Flux.just(1, 2).concatWith(Flux.error(new IllegalStateException("failed"))))
			.doOnNext(seen::add)
			.blockLast(TIMEOUT));
		assertThat(seen).containsExactly(1, 2);
		assertThat(redis.endpoint().command("EXISTS", "lock:failing-flux")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheSubscriberCancels() {
		AtomicInteger started = new AtomicInteger();
		Disposable subscription = this.template
			.execute("cancelled", TTL, Duration.ZERO, Mono.never().doOnSubscribe((s) -> started.incrementAndGet()))
			.subscribe();
		await().atMost(TIMEOUT).until(() -> started.get() == 1);
		assertThat(redis.endpoint().command("EXISTS", "lock:cancelled")).isEqualTo(1L);
		subscription.dispose();
		await().atMost(TIMEOUT).until(() -> redis.endpoint().command("EXISTS", "lock:cancelled").equals(0L));
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void monoThatIsNeverSubscribedTakesNoLock() {
		AtomicInteger calls = new AtomicInteger();
		Mono<String> locked = this.template.execute("lazy", TTL, Duration.ZERO,
				Mono.fromSupplier(() -> "v" + calls.incrementAndGet()));
		assertThat(redis.endpoint().command("EXISTS", "lock:lazy")).isEqualTo(0L);
		assertThat(redis.endpoint().command("EXISTS", "lock:lazy:fence")).isEqualTo(0L);
		assertThat(calls).hasValue(0);
		assertThat(locked).isNotNull();
	}

	@Test
	void busyLockErrorNamesTheHolderOfAnotherApplicationFromTheFailedAttemptsReply() {
		try (ReactiveApplication other = new ReactiveApplication(redis.endpoint(),
				LockSettings.builder().instanceName("billing-1").build())) {
			try (LockHandle holder = other.blockingTemplate
				.tryAcquire(
						LockRequest.builder("invoice:9").ttl(TTL).waitTime(Duration.ZERO).name("Billing.run").build())
				.orElseThrow()) {
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(
						() -> this.template.execute("invoice:9", TTL, Duration.ZERO, Mono.just("ran")).block(TIMEOUT))
					.satisfies((busy) -> {
						assertThat(busy.getHolder()).isNotNull();
						assertThat(busy.getHolder().instance()).isEqualTo("billing-1");
						assertThat(busy.getHolder().thread()).isEqualTo(Thread.currentThread().getName());
						assertThat(busy.getHolder().name()).isEqualTo("Billing.run");
						assertThat(busy.getMessage()).contains("Lock 'invoice:9' was not acquired at once",
								"held by instance 'billing-1'");
					});
				assertThat(holder.isHeld()).isTrue();
			}
		}
	}

	@Test
	void subscribingTwiceLocksTwiceWithIncreasingFencingTokens() {
		Mono<Long> token = this.template.execute(LockRequest.of("twice", TTL, Duration.ZERO),
				(lock) -> Mono.just(lock.fencingToken()));
		long first = token.block(TIMEOUT);
		long second = token.block(TIMEOUT);
		assertThat(second).isGreaterThan(first);
		assertThat(redis.endpoint().command("EXISTS", "lock:twice")).isEqualTo(0L);
	}

	@Test
	void busyLockGivesAnErrorSignalAndTheActionIsNotSubscribed() {
		AtomicInteger subscribed = new AtomicInteger();
		try (LockHandle holder = this.blockingTemplate.tryAcquire("busy", TTL, Duration.ZERO).orElseThrow()) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(
						() -> this.template
							.execute("busy", TTL, Duration.ofMillis(200),
									Mono.just("ran").doOnSubscribe((s) -> subscribed.incrementAndGet()))
							.block(TIMEOUT))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("busy"));
			assertThat(holder.isHeld()).isTrue();
		}
		assertThat(subscribed).hasValue(0);
	}

	@Test
	void busyLockAnswersWithTheBusyCallback() {
		try (LockHandle holder = this.blockingTemplate.tryAcquire("busy-callback", TTL, Duration.ZERO).orElseThrow()) {
			String answer = this.template
				.execute(LockRequest.of("busy-callback", TTL, Duration.ZERO), (lock) -> Mono.just("ran"),
						(busy) -> Mono.just("busy: " + busy.getKey()))
				.block(TIMEOUT);
			assertThat(answer).isEqualTo("busy: busy-callback");
		}
	}

	@Test
	void blockingAndReactiveCallersOfOneKeyExcludeEachOther() {
		try (LockHandle holder = this.blockingTemplate.tryAcquire("shared", TTL, Duration.ZERO).orElseThrow()) {
			Mono<String> waiting = this.template.execute("shared", TTL, Duration.ofSeconds(30), Mono.just("reactive"));
			AtomicReference<String> result = new AtomicReference<>();
			waiting.subscribe(result::set);
			await().pollDelay(Duration.ofMillis(300)).atMost(TIMEOUT).until(() -> true);
			assertThat(result).hasValue(null);
			holder.close();
			// Woken by the release notification, well before the 500ms backoff.
			await().atMost(TIMEOUT).until(() -> "reactive".equals(result.get()));
		}
		assertThat(this.blockingTemplate.tryAcquire("shared", TTL, Duration.ZERO))
			.hasValueSatisfying(LockHandle::close);
	}

	@Test
	void actionSeesItsLockInTheReactorContext() {
		AtomicLong fromArgument = new AtomicLong();
		Long fromContext = this.template.execute(LockRequest.of("context", TTL, Duration.ZERO), (lock) -> {
			fromArgument.set(lock.fencingToken());
			return ReactiveLockTemplate.currentLock().map(ReactiveLockHandle::fencingToken);
		}).block(TIMEOUT);
		assertThat(fromContext).isEqualTo(fromArgument.get()).isPositive();
		assertThat(ReactiveLockTemplate.currentLock().blockOptional()).isEmpty();
	}

	@Test
	void nestedExecuteOfTheSameKeyReEntersTheLock() {
		String nested = this.template
			.execute("outer", TTL, Duration.ZERO,
					this.template.execute("outer", TTL, Duration.ZERO, Mono.just("inner")))
			.block(TIMEOUT);
		assertThat(nested).isEqualTo("inner");
		assertThat(redis.endpoint().command("EXISTS", "lock:outer")).isEqualTo(0L);
	}

	@Test
	void whenLostCompletesWhenTheLockKeyIsRemovedWhileHeld() {
		Duration ttl = Duration.ofSeconds(1);
		String outcome = this.template
			.execute(LockRequest.of("lost", ttl, Duration.ZERO),
					(lock) -> Mono.fromRunnable(() -> redis.endpoint().command("DEL", "lock:lost"))
						.then(lock.whenLost())
						.thenReturn("lost"))
			.block(TIMEOUT);
		assertThat(outcome).isEqualTo("lost");
	}

	@Test
	void cancellingWhileWaitingLeavesNothingBehind() {
		try (LockHandle holder = this.blockingTemplate.tryAcquire("wait-cancel", TTL, Duration.ZERO).orElseThrow()) {
			Disposable waiting = this.template.execute("wait-cancel", TTL, Duration.ofSeconds(30), Mono.just("never"))
				.subscribe();
			await().pollDelay(Duration.ofMillis(200)).atMost(TIMEOUT).until(() -> true);
			waiting.dispose();
		}
		await().atMost(TIMEOUT).until(() -> redis.endpoint().command("EXISTS", "lock:wait-cancel").equals(0L));
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void unreachableRedisGivesALockBackendExceptionInBoundedTime() {
		try (RedisServer stopped = RedisServer.start()) {
			// A server that is then stopped, so its port refuses connections.
			stopped.kill();
			LettuceConnectionFactory unreachable = RedisConnections.connectionFactory(stopped);
			try {
				ReactiveLockTemplate template = new ReactiveLockTemplate(new ReactiveRedisLockClient(unreachable),
						this.application.blockingTemplate.getEngine());
				assertThatExceptionOfType(LockBackendException.class)
					.isThrownBy(
							() -> template.execute("down", TTL, Duration.ofSeconds(1), Mono.just("ran")).block(TIMEOUT))
					.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("down"))
					.withMessageContaining("Redis at 127.0.0.1:" + stopped.port())
					.withMessageContaining("command timeout 1s");
			}
			finally {
				unreachable.destroy();
			}
		}
	}

	@Test
	void lockedMonoIsObservedWaitingAndHoldingWithTheHoldingObservationInItsContext() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.application.close();
		this.application = new ReactiveApplication(redis.endpoint(),
				LockSettings.builder().observationRegistry(registry).build());
		this.template = this.application.template;
		Object current = this.template
			.execute(LockRequest.of("observed", TTL, Duration.ZERO).withName("stock"),
					(lock) -> Mono.deferContextual((context) -> Mono.just(context.get("micrometer.observation"))))
			.block(TIMEOUT);
		assertThat(current).isInstanceOfSatisfying(Observation.class,
				(observation) -> assertThat(((LockObservationContext) observation.getContext()).getPhase())
					.isEqualTo(LockObservationContext.Phase.HOLD));
		TestObservationRegistryAssert.assertThat(registry)
			.hasNumberOfObservationsWithNameEqualTo(DefaultLockObservationConvention.NAME, 2)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
				.map((context) -> ((LockObservationContext) context).getPhase() + " "
						+ ((LockObservationContext) context).getOutcome())
				.containsExactly("ACQUIRE acquired", "HOLD released"));
	}

	@Test
	void releaseOfALockNoLongerHeldEndsItsHoldingObservationWithOutcomeMismatch() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.application.close();
		this.application = new ReactiveApplication(redis.endpoint(),
				LockSettings.builder().observationRegistry(registry).build());
		this.template = this.application.template;
		this.template
			.execute(LockRequest.of("removed", TTL, Duration.ZERO),
					(lock) -> Mono.fromRunnable(() -> redis.endpoint().command("DEL", "lock:removed"))
						.thenReturn("done"))
			.block(TIMEOUT);
		TestObservationRegistryAssert.assertThat(registry)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
				.map((context) -> ((LockObservationContext) context).getPhase() + " "
						+ ((LockObservationContext) context).getOutcome())
				.containsExactly("ACQUIRE acquired", "HOLD mismatch"));
	}

	@Test
	void fairRequestsAreRefused() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> this.template.execute(LockRequest.of("fair", TTL, Duration.ZERO).withFair(true),
					(lock) -> Mono.just("ran")))
			.withMessageContaining("'fair'");
	}

	private static Mono<String> work(AtomicInteger inside, AtomicInteger overlaps, Duration duration, String value) {
		return Mono.fromRunnable(() -> {
			if (inside.incrementAndGet() != 1) {
				overlaps.incrementAndGet();
			}
		}).then(Mono.delay(duration)).then(Mono.fromSupplier(() -> {
			inside.decrementAndGet();
			return value;
		}));
	}

}
