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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.LockSettings;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests for re-entry across {@link LockTemplate}s on real redis-servers: a
 * nested call re-enters only the lock of the same store and key prefix, and takes its own
 * lock on any other.
 */
class LockTemplateReentryIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(2);

	private LettuceConnectionFactory first;

	private LettuceConnectionFactory second;

	private LettuceConnectionFactory thirdPartyOnFirst;

	private LettuceConnectionFactory thirdPartyOnSecond;

	private RedisLockClient firstStore;

	private LeaseRenewer firstRenewer;

	private LeaseRenewer secondRenewer;

	/** "orders:" on the first Redis. */
	private LockTemplate orders;

	/** "orders:" on the first Redis, through the same store as {@link #orders}. */
	private LockTemplate sameOrders;

	/** "payments:" on the first Redis, through the same store as {@link #orders}. */
	private LockTemplate payments;

	/** "orders:" on the second Redis. */
	private LockTemplate ordersElsewhere;

	@BeforeEach
	void createTemplates() {
		this.first = RedisConnections.connectionFactory(redis.endpoint(0));
		this.second = RedisConnections.connectionFactory(redis.endpoint(1));
		this.thirdPartyOnFirst = RedisConnections.connectionFactory(redis.endpoint(0));
		this.thirdPartyOnSecond = RedisConnections.connectionFactory(redis.endpoint(1));
		this.firstStore = new RedisLockClient(this.first);
		RedisLockClient secondStore = new RedisLockClient(this.second);
		this.firstRenewer = new LeaseRenewer(this.firstStore, Duration.ofHours(1));
		this.secondRenewer = new LeaseRenewer(secondStore, Duration.ofHours(1));
		LockWaiter waiter = new LockWaiter(Duration.ofMillis(100));
		this.orders = template(this.firstStore, waiter, this.firstRenewer, "orders:");
		this.sameOrders = template(this.firstStore, waiter, this.firstRenewer, "orders:");
		this.payments = template(this.firstStore, waiter, this.firstRenewer, "payments:");
		this.ordersElsewhere = template(secondStore, waiter, this.secondRenewer, "orders:");
	}

	private static LockTemplate template(RedisLockClient store, LockWaiter waiter, LeaseRenewer renewer,
			String prefix) {
		return new LockTemplate(
				new LockEngine(store, waiter, LockSettings.builder().keyPrefix(prefix).build(), renewer));
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
		this.orders.execute(request("42"), (outer) -> {
			this.payments.execute(request("42"), (inner) -> {
				assertTookItsOwnLock(outer, inner);
				assertThat(anotherApplicationCanTake(redis.endpoint(0), "payments:42")).isFalse();
				return null;
			});
			assertThat(LockContext.current()).containsSame(outer);
			assertThat(exists(redis.endpoint(0), "payments:42")).as("released by the nested call").isFalse();
			assertThat(exists(redis.endpoint(0), "orders:42")).isTrue();
			return null;
		});
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void nestedExecuteOnATemplateOnAnotherRedisTakesItsOwnLock() {
		this.orders.execute(request("42"), (outer) -> {
			this.ordersElsewhere.execute(request("42"), (inner) -> {
				assertTookItsOwnLock(outer, inner);
				assertThat(anotherApplicationCanTake(redis.endpoint(1), "orders:42")).isFalse();
				return null;
			});
			assertThat(LockContext.current()).containsSame(outer);
			assertThat(exists(redis.endpoint(1), "orders:42")).as("released by the nested call").isFalse();
			return null;
		});
	}

	@Test
	void nestedExecuteOnAnotherTemplateFailsWhenAnotherHolderHasItsLock() throws Exception {
		try (LockHandle otherHolder = anotherApplication(redis.endpoint(0))
			.tryAcquire(LockRequest.of("payments:42", TTL, Duration.ZERO).withAutoRenew(false))
			.orElseThrow()) {
			AtomicBoolean ran = new AtomicBoolean();
			this.orders.execute(request("42"), (outer) -> {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> this.payments.execute(request("42"), (inner) -> ran.getAndSet(true)));
				return null;
			});
			assertThat(ran).as("the nested code ran without its lock").isFalse();
			assertThat(otherHolder.isHeld()).isTrue();
		}
	}

	@Test
	void nestedExecuteOnATemplateOfTheSameStoreAndPrefixReentersTheLock() {
		this.orders.execute(request("42"), (outer) -> {
			this.sameOrders.execute(request("42"), (inner) -> {
				assertThat(inner).isSameAs(outer);
				assertThat(LockContext.current()).containsSame(outer);
				return null;
			});
			assertThat(exists(redis.endpoint(0), "orders:42")).as("still held by the outer call").isTrue();
			return null;
		});
		assertThat(exists(redis.endpoint(0), "orders:42")).isFalse();
	}

	@Test
	void nestedExecuteOfTheSameStoreKeyUnderAnotherSplitOfPrefixAndKeyReentersTheLock() {
		LockTemplate unprefixed = template(this.firstStore, new LockWaiter(Duration.ofMillis(100)), this.firstRenewer,
				"");
		this.orders.execute(request("42"), (outer) -> unprefixed.execute(request("orders:42"), (inner) -> {
			assertThat(inner).isSameAs(outer);
			return null;
		}));
	}

	@Test
	void nestedExecuteOnATemplateOfAnotherStoreInstanceTakesItsOwnLock() {
		// Two LockClient instances count as two stores, even on the same Redis.
		LockTemplate otherStore = template(new RedisLockClient(this.first), new LockWaiter(Duration.ofMillis(100)),
				this.firstRenewer, "orders:");
		this.orders.execute(request("42"), (outer) -> {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> otherStore.execute(request("42"), (inner) -> null));
			return null;
		});
	}

	@Test
	void nestedExecuteAllOnATemplateWithAnotherPrefixTakesEveryKey() {
		this.orders.execute(request("42"), (outer) -> {
			this.payments.executeAll(MultiLockRequest.of(List.of("42", "43"), TTL, Duration.ZERO), (locks) -> {
				assertThat(locks.locks()).noneMatch((lock) -> lock == outer);
				assertThat(LockContext.held()).hasSize(3).startsWith(outer);
				assertThat(anotherApplicationCanTake(redis.endpoint(0), "payments:42")).isFalse();
				assertThat(anotherApplicationCanTake(redis.endpoint(0), "payments:43")).isFalse();
				return null;
			});
			assertThat(exists(redis.endpoint(0), "payments:42")).as("released by the nested call").isFalse();
			return null;
		});
	}

	@Test
	void nestedExecuteAllOnATemplateOnAnotherRedisTakesEveryKey() {
		this.orders.execute(request("42"), (outer) -> {
			this.ordersElsewhere.executeAll(MultiLockRequest.of(List.of("42", "43"), TTL, Duration.ZERO), (locks) -> {
				assertThat(locks.locks()).noneMatch((lock) -> lock == outer);
				assertThat(anotherApplicationCanTake(redis.endpoint(1), "orders:42")).isFalse();
				return null;
			});
			return null;
		});
	}

	@Test
	void nestedExecuteAllOnATemplateOfTheSameStoreAndPrefixReentersTheHeldKey() {
		this.orders.execute(request("42"), (outer) -> {
			this.sameOrders.executeAll(MultiLockRequest.of(List.of("42", "43"), TTL, Duration.ZERO), (locks) -> {
				assertThat(locks.locks().get(0)).isSameAs(outer);
				assertThat(locks.locks().get(1)).isNotSameAs(outer);
				return null;
			});
			assertThat(exists(redis.endpoint(0), "orders:42")).as("still held by the outer call").isTrue();
			return null;
		});
	}

	@Test
	void nestedExecuteAsyncOnATemplateWithAnotherPrefixTakesItsOwnLock() throws Exception {
		this.orders.execute(request("42"), (outer) -> {
			CompletableFuture<String> done = this.payments.executeAsync(request("42"), (inner) -> {
				assertTookItsOwnLock(outer, inner);
				assertThat(anotherApplicationCanTake(redis.endpoint(0), "payments:42")).isFalse();
				return CompletableFuture.completedFuture("done");
			});
			assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			assertThat(exists(redis.endpoint(0), "payments:42")).as("released by the nested call").isFalse();
			return null;
		});
	}

	@Test
	void nestedExecuteAsyncOnATemplateOnAnotherRedisTakesItsOwnLock() throws Exception {
		this.orders.execute(request("42"), (outer) -> {
			CompletableFuture<String> done = this.ordersElsewhere.executeAsync(request("42"), (inner) -> {
				assertTookItsOwnLock(outer, inner);
				assertThat(anotherApplicationCanTake(redis.endpoint(1), "orders:42")).isFalse();
				return CompletableFuture.completedFuture("done");
			});
			assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			return null;
		});
	}

	@Test
	void nestedExecuteAsyncOnATemplateOfTheSameStoreAndPrefixReentersTheLock() throws Exception {
		this.orders.execute(request("42"), (outer) -> {
			CompletableFuture<Boolean> reentered = this.sameOrders.executeAsync(request("42"),
					(inner) -> CompletableFuture.completedFuture(inner == outer));
			assertThat(reentered.get(10, TimeUnit.SECONDS)).isTrue();
			assertThat(exists(redis.endpoint(0), "orders:42")).as("still held by the outer call").isTrue();
			return null;
		});
	}

	@Test
	void findBoundLockFindsOnlyTheLockOfTheTemplatesStoreAndPrefix() {
		this.orders.execute(request("42"), (outer) -> {
			assertThat(this.orders.findBoundLock("42")).isSameAs(outer);
			assertThat(this.sameOrders.findBoundLock("42")).isSameAs(outer);
			assertThat(this.payments.findBoundLock("42")).isNull();
			assertThat(this.ordersElsewhere.findBoundLock("42")).isNull();
			assertThat(LockContext.find("42")).as("any lock of the key").isSameAs(outer);
			return null;
		});
		assertThat(this.orders.findBoundLock("42")).isNull();
	}

	private static void assertTookItsOwnLock(LockHandle outer, LockHandle inner) {
		assertThat(inner).isNotSameAs(outer);
		assertThat(inner.isHeld()).isTrue();
		Optional<LockHandle> current = LockContext.current();
		assertThat(current).containsSame(inner);
		assertThat(current.orElseThrow().fencingToken()).isEqualTo(inner.fencingToken())
			.isNotEqualTo(outer.fencingToken());
	}

	private static LockRequest request(String key) {
		return LockRequest.of(key, TTL, Duration.ZERO);
	}

	private static boolean exists(RedisEndpoint endpoint, String resource) {
		return endpoint.command("EXISTS", resource).equals(1L);
	}

	/**
	 * Whether another application, on another thread and connection, can take the lock
	 * now; it releases it at once if it can.
	 */
	private boolean anotherApplicationCanTake(RedisEndpoint endpoint, String resource) {
		LockTemplate other = anotherApplication(endpoint);
		return CompletableFuture.supplyAsync(() -> {
			Optional<LockHandle> taken = other
				.tryAcquire(LockRequest.of(resource, TTL, Duration.ZERO).withAutoRenew(false));
			taken.ifPresent(LockHandle::close);
			return taken.isPresent();
		}).orTimeout(10, TimeUnit.SECONDS).join();
	}

	private LockTemplate anotherApplication(RedisEndpoint endpoint) {
		return new LockTemplate(new LockEngine(
				new RedisLockClient((endpoint == redis.endpoint(0)) ? this.thirdPartyOnFirst : this.thirdPartyOnSecond),
				new LockWaiter(Duration.ofMillis(500)), LockSettings.builder().keyPrefix("").build()));
	}

}
