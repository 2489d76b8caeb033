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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.distlock.store.AcquireResult;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link RedisReleaseNotifier}.
 */
class RedisReleaseNotifierIntegrationTests {

	// Far longer than any test waits: a waiter that wakes was woken by a signal.
	private static final long NEVER = TimeUnit.MINUTES.toNanos(10);

	private static final Duration TTL = Duration.ofMinutes(1);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final LockWaiter waiter = new LockWaiter(Duration.ofMinutes(10), Duration.ofMinutes(10));

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	private RedisReleaseNotifier notifier;

	@BeforeEach
	void startNotifier() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
		this.notifier = new RedisReleaseNotifier(this.connectionFactory, this.waiter);
		this.notifier.start();
		awaitSubscribers(redis.endpoint(), 1);
	}

	@AfterEach
	void stopNotifier() {
		this.notifier.close();
		this.connectionFactory.destroy();
	}

	/**
	 * Make the attempt a waiter makes before it parks, which announces it: releases of
	 * locks that no caller found busy are not published.
	 */
	private void foundBusy(String key) {
		assertThat(this.client.tryAcquire(key, owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void releaseWakesAWaiterOfTheLockLongBeforeItsBackoff() throws Exception {
		String owner = owner();
		this.client.tryAcquire("lock:k", owner, TTL);
		ParkedWaiter parked = park("lock:k");
		foundBusy("lock:k");
		this.client.release("lock:k", owner);
		assertThat(parked.wokenWithin()).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void releaseOfAnotherLockWakesNobody() throws Exception {
		String owner = owner();
		this.client.tryAcquire("lock:other", owner, TTL);
		ParkedWaiter waiting = park("lock:k");
		ParkedWaiter probe = park("lock:other");
		foundBusy("lock:other");
		this.client.release("lock:other", owner);
		probe.wokenWithin();
		assertThat(waiting.parkedNanos()).isNotDone();
		assertThat(LockSupport.getBlocker(waiting.thread())).isInstanceOf(LockWaiter.Waiter.class);
	}

	@Test
	void allLocksShareOnePatternSubscriptionOnOneConnection() throws Exception {
		ParkedWaiter a = park("lock:a");
		ParkedWaiter b = park("lock:b");
		assertThat(redis.endpoint().command("PUBSUB", "NUMPAT")).isEqualTo(1L);
		assertThat(pubSubClients(redis.endpoint())).isEqualTo(1);
		this.waiter.signalAll();
		a.wokenWithin();
		b.wokenWithin();
	}

	@Test
	void resubscribingAfterTheConnectionWasKilledWakesEveryWaiter() throws Exception {
		ParkedWaiter parked = park("lock:released-while-disconnected");
		redis.endpoint().command("CLIENT", "KILL", "TYPE", "pubsub");
		assertThat(parked.wokenWithin()).isLessThan(Duration.ofSeconds(5));
		awaitSubscribers(redis.endpoint(), 1);
	}

	@Test
	void releasesWakeWaitersAgainAfterTheConnectionWasKilled() throws Exception {
		redis.endpoint().command("CLIENT", "KILL", "TYPE", "pubsub");
		awaitSubscribers(redis.endpoint(), 1);
		String owner = owner();
		this.client.tryAcquire("lock:k", owner, TTL);
		ParkedWaiter parked = park("lock:k");
		foundBusy("lock:k");
		this.client.release("lock:k", owner);
		assertThat(parked.wokenWithin()).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void stopUnsubscribesAndStartSubscribesAgain() {
		this.notifier.stop();
		assertThat(this.notifier.isRunning()).isFalse();
		awaitSubscribers(redis.endpoint(), 0);
		this.notifier.start();
		assertThat(this.notifier.isRunning()).isTrue();
		awaitSubscribers(redis.endpoint(), 1);
	}

	@Test
	void startWhileRedisIsDownDoesNotFailAndSubscribesOnceItIsBack() throws Exception {
		try (RedisServer server = RedisServer.start()) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server);
			RedisReleaseNotifier notifier = new RedisReleaseNotifier(factory, this.waiter);
			try {
				server.stop();
				notifier.start();
				ParkedWaiter parked = park("lock:k");
				server.restart();
				awaitSubscribers(server, 1);
				assertThat(parked.wokenWithin()).as("woken by the first subscription")
					.isLessThan(Duration.ofSeconds(10));
			}
			finally {
				notifier.close();
				factory.destroy();
			}
		}
	}

	private ParkedWaiter park(String key) throws InterruptedException {
		CountDownLatch registered = new CountDownLatch(1);
		CompletableFuture<Long> parked = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try (LockWaiter.Waiter waiting = this.waiter.register(key)) {
				registered.countDown();
				long start = System.nanoTime();
				waiting.await(-1, start + NEVER);
				parked.complete(System.nanoTime() - start);
			}
			catch (Throwable ex) {
				parked.completeExceptionally(ex);
			}
		});
		thread.setDaemon(true);
		thread.start();
		registered.await();
		await().atMost(Duration.ofSeconds(5)).until(() -> LockSupport.getBlocker(thread) instanceof LockWaiter.Waiter);
		return new ParkedWaiter(thread, parked);
	}

	private static void awaitSubscribers(RedisEndpoint endpoint, long patterns) {
		await().atMost(Duration.ofSeconds(10)).until(() -> patterns == (Long) endpoint.command("PUBSUB", "NUMPAT"));
	}

	private static long pubSubClients(RedisEndpoint endpoint) {
		String clients = (String) endpoint.command("CLIENT", "LIST", "TYPE", "pubsub");
		return clients.lines().filter((line) -> !line.isBlank()).count();
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

	/**
	 * A thread parked in {@link LockWaiter.Waiter#await} for ten minutes.
	 */
	private record ParkedWaiter(Thread thread, CompletableFuture<Long> parkedNanos) {

		Duration wokenWithin() throws Exception {
			try {
				return Duration.ofNanos(this.parkedNanos.get(10, TimeUnit.SECONDS));
			}
			finally {
				this.thread.interrupt();
			}
		}

	}

}
