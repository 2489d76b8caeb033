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
package io.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.LockStack;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisVersion;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Integration tests for {@link RedisReleaseNotifier#sharded} on a real Redis 7 cluster:
 * subscriptions exist only while someone waits, follow a failover, and come back after a
 * stop and start.
 */
class ShardedReleaseNotifierIntegrationTests {

	private static final Duration LEASE = Duration.ofMinutes(1);

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);

	// Only a notification, or a minute, wakes a waiter.
	private final LockWaiter waiter = new LockWaiter(Duration.ofMinutes(1), Duration.ofMinutes(1));

	private LettuceConnectionFactory connectionFactory;

	private RedisReleaseNotifier notifier;

	private LockStack stack;

	private LockStack holderStack;

	private LockTemplate template;

	private LockTemplate holderTemplate;

	@BeforeEach
	void startNotifier() {
		assumeTrue(RedisVersion.majorVersion() >= 7, "sharded pub/sub needs Redis 7");
		this.connectionFactory = RedisConnections.connectionFactory(redis.cluster());
		this.notifier = RedisReleaseNotifier.sharded(this.connectionFactory, this.waiter);
		this.notifier.start();
		// The stacks share the waiter that the sharded notifier signals.
		this.stack = LockStack.on(this.connectionFactory).client((connectionFactory) -> {
			RedisLockClient client = new RedisLockClient(connectionFactory);
			client.setShardedReleaseMessages(true);
			return client;
		}).withoutReleaseNotifier().waiter(this.waiter).build();
		this.template = this.stack.template();
		// Holds locks that are on the replica when their primary dies.
		this.holderStack = LockStack.on(this.connectionFactory).client((connectionFactory) -> {
			RedisLockClient acknowledged = new RedisLockClient(connectionFactory);
			acknowledged.setShardedReleaseMessages(true);
			acknowledged.setReplicaAcknowledgement(1, Duration.ofMillis(200));
			return acknowledged;
		}).withoutReleaseNotifier().waiter(this.waiter).build();
		this.holderTemplate = this.holderStack.template();
	}

	@AfterEach
	void stopNotifier() {
		if (this.notifier != null) {
			this.holderStack.close();
			this.stack.close();
			this.notifier.close();
			RedisConnections.destroy(this.connectionFactory);
		}
	}

	@Test
	void givenAWaiterWhenTheLockIsReleasedThenItIsWokenAndTheSubscriptionEndsWithTheWait() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", LEASE, Duration.ZERO).orElseThrow();
		CompletableFuture<Long> waited = waitFor("k");
		RedisServer primary = redis.cluster().primaryForKey("lock:k");
		awaitSubscribers(primary, "lock:k", 1);
		holder.close();
		assertThat(waited.get(20, TimeUnit.SECONDS)).isLessThan(TimeUnit.SECONDS.toNanos(20));
		awaitSubscribers(primary, "lock:k", 0);
	}

	@Test
	void givenALockTakenAtTheFirstAttemptThenNothingIsSubscribed() {
		try (LockHandle handle = this.template.tryAcquire("k", LEASE, Duration.ofSeconds(5)).orElseThrow()) {
			assertThat(handle.isHeld()).isTrue();
		}
		for (RedisServer primary : redis.cluster().primaries()) {
			assertThat(primary.command("PUBSUB", "SHARDCHANNELS")).isEqualTo(List.of());
		}
	}

	@Test
	void givenAWaiterWhenThePrimaryOfItsLockFailsOverThenItIsResubscribedOnTheNewPrimaryAndWokenByTheRelease()
			throws Exception {
		LockHandle holder = this.holderTemplate.tryAcquire("k", LEASE, Duration.ZERO).orElseThrow();
		CompletableFuture<Long> waited = waitFor("k");
		RedisCluster cluster = redis.cluster();
		awaitSubscribers(cluster.primaryForKey("lock:k"), "lock:k", 1);
		RedisServer promoted = cluster.killPrimaryAndAwaitFailover(cluster.primaryForKey("lock:k"));
		awaitSubscribers(promoted, "lock:k", 1);
		await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
			holder.close();
			return true;
		});
		assertThat(waited.get(20, TimeUnit.SECONDS)).isLessThan(TimeUnit.SECONDS.toNanos(30));
	}

	@Test
	void givenANotifierStoppedAndStartedAgainWhenTheLockIsReleasedThenItsWaiterIsWoken() throws Exception {
		// As Spring's pause() and restart() do, twice.
		for (int round = 0; round < 2; round++) {
			this.notifier.stop();
			assertThat(this.notifier.isRunning()).isFalse();
			assertThat(this.notifier.isSubscribed()).isFalse();
			this.notifier.start();
			await().atMost(Duration.ofSeconds(20)).until(this.notifier::isSubscribed);
			LockHandle holder = this.template.tryAcquire("k", LEASE, Duration.ZERO).orElseThrow();
			CompletableFuture<Long> waited = waitFor("k");
			RedisServer primary = redis.cluster().primaryForKey("lock:k");
			awaitSubscribers(primary, "lock:k", 1);
			holder.close();
			assertThat(waited.get(20, TimeUnit.SECONDS)).isLessThan(TimeUnit.SECONDS.toNanos(20));
			awaitSubscribers(primary, "lock:k", 0);
		}
	}

	private CompletableFuture<Long> waitFor(String key) {
		return CompletableFuture.supplyAsync(() -> {
			long start = System.nanoTime();
			try (LockHandle handle = this.template.tryAcquire(key, LEASE, LEASE).orElseThrow()) {
				return System.nanoTime() - start;
			}
		});
	}

	private static void awaitSubscribers(RedisServer primary, String resource, long count) {
		String channel = RedisLockKeys.of(resource).channel();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> ((List<?>) primary.command("PUBSUB", "SHARDNUMSUB", channel)).get(1), (n) -> n.equals(count));
	}

}
