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
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.ReactiveRedisLockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for re-entry across {@link ReactiveLockTemplate}s on real
 * redis-servers: nested work re-enters only the lock of the same store and key prefix,
 * and takes its own lock on any other.
 */
class ReactiveLockTemplateReentryIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(2);

	private LettuceConnectionFactory first;

	private LettuceConnectionFactory second;

	private LettuceConnectionFactory thirdPartyOnFirst;

	private LettuceConnectionFactory thirdPartyOnSecond;

	private LeaseRenewer firstRenewer;

	private LeaseRenewer secondRenewer;

	private ReactiveLockTemplate orders;

	private ReactiveLockTemplate sameOrders;

	private ReactiveLockTemplate payments;

	private ReactiveLockTemplate ordersElsewhere;

	@BeforeEach
	void createTemplates() {
		this.first = RedisConnections.connectionFactory(redis.endpoint(0));
		this.second = RedisConnections.connectionFactory(redis.endpoint(1));
		this.thirdPartyOnFirst = RedisConnections.connectionFactory(redis.endpoint(0));
		this.thirdPartyOnSecond = RedisConnections.connectionFactory(redis.endpoint(1));
		this.firstRenewer = new LeaseRenewer(new RedisLockClient(this.first), Duration.ofHours(1));
		this.secondRenewer = new LeaseRenewer(new RedisLockClient(this.second), Duration.ofHours(1));
		ReactiveRedisLockClient firstStore = new ReactiveRedisLockClient(this.first);
		ReactiveRedisLockClient secondStore = new ReactiveRedisLockClient(this.second);
		LockWaiter waiter = new LockWaiter(Duration.ofMillis(100));
		this.orders = template(new RedisLockClient(this.first), firstStore, waiter, this.firstRenewer, "orders:");
		this.sameOrders = template(new RedisLockClient(this.first), firstStore, waiter, this.firstRenewer, "orders:");
		this.payments = template(new RedisLockClient(this.first), firstStore, waiter, this.firstRenewer, "payments:");
		this.ordersElsewhere = template(new RedisLockClient(this.second), secondStore, waiter, this.secondRenewer,
				"orders:");
	}

	private static ReactiveLockTemplate template(RedisLockClient client, ReactiveRedisLockClient store,
			LockWaiter waiter, LeaseRenewer renewer, String prefix) {
		LockEngine engine = new LockEngine(client, waiter, LockSettings.builder().keyPrefix(prefix).build(), renewer);
		return new ReactiveLockTemplate(store, engine);
	}

	@AfterEach
	void destroyTemplates() {
		this.firstRenewer.close();
		this.secondRenewer.close();
		this.first.destroy();
		this.second.destroy();
		this.thirdPartyOnFirst.destroy();
		this.thirdPartyOnSecond.destroy();
	}

	@Test
	void nestedExecuteOnATemplateWithAnotherPrefixTakesItsOwnLock() {
		Boolean anotherCouldTake = this.orders
			.execute(
					request("42"), (
							outer) -> this.payments.execute(request("42"),
									(inner) -> tookItsOwnLock(outer, inner)
										.then(anotherApplicationCanTake(redis.endpoint(0), "payments:42"))))
			.block(TIMEOUT);
		assertThat(anotherCouldTake).isFalse();
		assertThat(exists(redis.endpoint(0), "payments:42")).isFalse();
	}

	@Test
	void nestedExecuteOnATemplateOnAnotherRedisTakesItsOwnLock() {
		Boolean anotherCouldTake = this.orders
			.execute(
					request("42"), (
							outer) -> this.ordersElsewhere.execute(request("42"),
									(inner) -> tookItsOwnLock(outer, inner)
										.then(anotherApplicationCanTake(redis.endpoint(1), "orders:42"))))
			.block(TIMEOUT);
		assertThat(anotherCouldTake).isFalse();
	}

	@Test
	void nestedExecuteManyOnATemplateWithAnotherPrefixTakesItsOwnLock() {
		Boolean anotherCouldTake = this.orders
			.execute(
					request("42"), (
							outer) -> this.payments
								.executeMany(request("42"),
										(inner) -> tookItsOwnLock(outer, inner)
											.then(anotherApplicationCanTake(redis.endpoint(0), "payments:42")))
								.single())
			.block(TIMEOUT);
		assertThat(anotherCouldTake).isFalse();
	}

	@Test
	void nestedExecuteOnAnotherTemplateFailsWhenAnotherHolderHasItsLock() {
		try (LockHandle otherHolder = anotherApplication(redis.endpoint(0))
			.tryAcquire(LockRequest.of("payments:42", TTL, Duration.ZERO).withAutoRenew(false))
			.orElseThrow()) {
			AtomicBoolean ran = new AtomicBoolean();
			Mono<Object> nested = this.orders.execute(request("42"),
					(outer) -> this.payments.execute(request("42"), (inner) -> Mono.fromRunnable(() -> ran.set(true))));
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> nested.block(TIMEOUT));
			assertThat(ran).as("the nested work ran without its lock").isFalse();
			assertThat(otherHolder.isHeld()).isTrue();
		}
	}

	@Test
	void nestedExecuteOnATemplateOfTheSameStoreAndPrefixReentersTheLock() {
		Boolean reentered = this.orders
			.execute(request("42"),
					(outer) -> this.sameOrders.execute(request("42"), (inner) -> Mono.just(inner == outer)))
			.block(TIMEOUT);
		assertThat(reentered).isTrue();
		assertThat(exists(redis.endpoint(0), "orders:42")).isFalse();
	}

	@Test
	void nestedExecuteAfterTheOuterUnrenewedLeaseRanOutFailsAndDoesNotRunWhileAnotherOwnerHoldsTheKey() {
		AtomicBoolean ran = new AtomicBoolean();
		AtomicReference<LockHandle> otherHolder = new AtomicReference<>();
		LockRequest unrenewed = LockRequest.of("42", Duration.ofMillis(300), Duration.ZERO).withAutoRenew(false);
		Mono<Object> nested = this.orders.execute(unrenewed, (outer) -> Mono.fromRunnable(() -> {
			// The outer work outlives its lease: the key expires, and another application
			// takes it.
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> !exists(redis.endpoint(0), "orders:42"));
			otherHolder.set(anotherApplication(redis.endpoint(0))
				.tryAcquire(LockRequest.of("orders:42", TTL, Duration.ZERO).withAutoRenew(false))
				.orElseThrow());
		})
			.subscribeOn(Schedulers.boundedElastic())
			.then(this.sameOrders.execute(request("42"), (inner) -> Mono.fromRunnable(() -> ran.set(true)))));
		try {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> nested.block(TIMEOUT))
				.withMessageContaining("Lock '42' cannot be re-entered");
			assertThat(ran).as("the nested work ran without its lock").isFalse();
			assertThat(otherHolder.get().isHeld()).isTrue();
		}
		finally {
			if (otherHolder.get() != null) {
				otherHolder.get().close();
			}
		}
	}

	private static Mono<Void> tookItsOwnLock(ReactiveLockHandle outer, ReactiveLockHandle inner) {
		return ReactiveLockTemplate.currentLock().doOnNext((current) -> {
			assertThat(inner).isNotSameAs(outer);
			assertThat(current).isSameAs(inner);
			assertThat(current.fencingToken()).isNotEqualTo(outer.fencingToken());
		}).switchIfEmpty(Mono.error(() -> new AssertionError("No current lock"))).then();
	}

	private static LockRequest request(String key) {
		return LockRequest.of(key, TTL, Duration.ZERO);
	}

	private static boolean exists(RedisEndpoint endpoint, String resource) {
		return endpoint.command("EXISTS", resource).equals(1L);
	}

	/**
	 * Whether another application, on its own connection, can take the lock now; it
	 * releases it at once if it can.
	 */
	private Mono<Boolean> anotherApplicationCanTake(RedisEndpoint endpoint, String resource) {
		LockTemplate other = anotherApplication(endpoint);
		return Mono.fromCallable(() -> {
			Optional<LockHandle> taken = other
				.tryAcquire(LockRequest.of(resource, TTL, Duration.ZERO).withAutoRenew(false));
			taken.ifPresent(LockHandle::close);
			return taken.isPresent();
		}).subscribeOn(Schedulers.boundedElastic());
	}

	private LockTemplate anotherApplication(RedisEndpoint endpoint) {
		return new LockTemplate(new LockEngine(
				new RedisLockClient((endpoint == redis.endpoint(0)) ? this.thirdPartyOnFirst : this.thirdPartyOnSecond),
				new LockWaiter(Duration.ofMillis(500)), LockSettings.builder().keyPrefix("").build()));
	}

}
