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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for waiting in {@link LockTemplate}: release notifications, the
 * fallbacks when they are lost, the wait time, and fair mode.
 */
class LockTemplateWaitingIntegrationTests {

	private static final Duration TTL = Duration.ofMinutes(1);

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofSeconds(20);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final LockWaiter waiter = new LockWaiter(LONG_BACKOFF, LONG_BACKOFF);

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint()).waiter(this.waiter).build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() {
		this.stack.close();
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void waiterWakesOnReleaseLongBeforeItsBackoff(boolean fair) throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Waiting waiting = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF).withFair(fair));
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(waiting.acquiredAt(5) - releasedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(1500));
		waiting.handle().close();
	}

	@Test
	void secondWaiterOfThisApplicationIsWokenByTheReleaseOfTheFirstThoughNobodyAnnouncedItAgain() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Waiting first = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF));
		Waiting second = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF));
		// One release message wakes one waiter of this application, and the release
		// takes the announcement of both along: unless the other lost a race since, the
		// next release is not published.
		holder.close();
		Waiting woken = awaitOneAcquired(first, second);
		Waiting other = (woken == first) ? second : first;
		long releasedAt = System.nanoTime();
		woken.handle().close();
		assertThat(other.acquiredAt(5) - releasedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(1500));
		other.handle().close();
	}

	@Test
	void waiterStillAcquiresWhenTheReleaseMessageIsLostAndIsWokenByReleasesAgainAfterwards() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Waiting first = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF));
		redis.endpoint().command("CLIENT", "KILL", "TYPE", "pubsub");
		holder.close();
		first.acquiredAt(5);
		first.handle().close();
		await().atMost(Duration.ofSeconds(5)).until(() -> (Long) redis.endpoint().command("PUBSUB", "NUMPAT") == 1);
		holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Waiting second = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF));
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(second.acquiredAt(5) - releasedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(1500));
		second.handle().close();
	}

	@Test
	void waiterWithoutNotificationsAcquiresAfterABoundedBackoff() throws Exception {
		LockWaiter pollingWaiter = new LockWaiter(Duration.ofMillis(100), Duration.ofMillis(200));
		try (LockStack pollingStack = LockStack.on(this.stack.connectionFactory())
			.waiter(pollingWaiter)
			.withoutReleaseNotifier()
			.build()) {
			LockTemplate polling = pollingStack.template();
			LockHandle holder = polling.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
			CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
				polling.tryAcquire("k", TTL, LONG_BACKOFF).orElseThrow().close();
				return System.nanoTime();
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> pollingWaiter.waiting() == 1);
			long releasedAt = System.nanoTime();
			holder.close();
			assertThat(acquiredAt.get(5, TimeUnit.SECONDS) - releasedAt)
				.isLessThan(TimeUnit.MILLISECONDS.toNanos(1500));
		}
	}

	@Test
	void waiterRetriesWhenTheHoldersLeaseRunsOut() {
		this.template.tryAcquire(LockRequest.of("k", Duration.ofMillis(300), Duration.ZERO).withAutoRenew(false))
			.orElseThrow();
		long start = System.nanoTime();
		try (LockHandle handle = this.template.tryAcquire("k", TTL, LONG_BACKOFF).orElseThrow()) {
			assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(300 + 1000));
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void waitTimeIsHonouredWithinASmallMargin(boolean fair) {
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			long start = System.nanoTime();
			assertThat(this.template.tryAcquire(LockRequest.of("k", TTL, Duration.ofMillis(250)).withFair(fair)))
				.isEmpty();
			assertThat(System.nanoTime() - start).isBetween(TimeUnit.MILLISECONDS.toNanos(250),
					TimeUnit.MILLISECONDS.toNanos(250 + 700));
		}
		assertThat(this.waiter.waiting()).isZero();
		assertThat(redis.endpoint().command("EXISTS", "{lock:k}\u001fqueue\u001flock:k")).isEqualTo(0L);
	}

	@Test
	void fairWaitersGetTheLockInArrivalOrder() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		List<Integer> order = new CopyOnWriteArrayList<>();
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			int arrival = i;
			waiters.add(CompletableFuture.runAsync(() -> {
				LockRequest request = LockRequest.of("k", TTL, Duration.ofSeconds(30)).withFair(true);
				try (LockHandle handle = this.template.tryAcquire(request).orElseThrow()) {
					order.add(arrival);
				}
			}, (task) -> new Thread(task).start()));
			long queued = i + 1;
			await().atMost(Duration.ofSeconds(5))
				.until(() -> (Long) redis.endpoint().command("LLEN", "{lock:k}\u001fqueue\u001flock:k") == queued);
		}
		holder.close();
		CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
		assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	}

	@Test
	void fairWaiterThatGivesUpLeavesTheQueueAndTheNextGetsTheLock() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		CompletableFuture<Boolean> impatient = CompletableFuture
			.supplyAsync(() -> this.template.tryAcquire(LockRequest.of("k", TTL, Duration.ofMillis(300)).withFair(true))
				.isPresent());
		await().atMost(Duration.ofSeconds(5))
			.until(() -> (Long) redis.endpoint().command("LLEN", "{lock:k}\u001fqueue\u001flock:k") == 1);
		Waiting patient = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF).withFair(true));
		assertThat(impatient.get(5, TimeUnit.SECONDS)).isFalse();
		assertThat(redis.endpoint().command("LLEN", "{lock:k}\u001fqueue\u001flock:k")).isEqualTo(1L);
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(patient.acquiredAt(5) - releasedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(1500));
		patient.handle().close();
	}

	private Waiting startWaiting(LockRequest request) throws InterruptedException {
		CompletableFuture<LockHandle> acquired = new CompletableFuture<>();
		long[] acquiredAt = new long[1];
		Thread thread = new Thread(() -> {
			try {
				LockHandle handle = this.template.tryAcquire(request).orElseThrow();
				acquiredAt[0] = System.nanoTime();
				acquired.complete(handle);
			}
			catch (Throwable ex) {
				acquired.completeExceptionally(ex);
			}
		});
		thread.start();
		// Parked after a failed attempt, so the release has to wake it; or parked in the
		// local queue, behind a thread of this template that waits in the store, which a
		// release hands the lock to.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> LockSupport.getBlocker(thread) instanceof LockWaiter.Waiter
					|| LockSupport.getBlocker(thread) instanceof Condition);
		return new Waiting(acquired, acquiredAt);
	}

	private static Waiting awaitOneAcquired(Waiting first, Waiting second) {
		await().atMost(Duration.ofSeconds(5)).until(() -> first.acquired().isDone() || second.acquired().isDone());
		return first.acquired().isDone() ? first : second;
	}

	/**
	 * A thread waiting for a lock, parked.
	 */
	private record Waiting(CompletableFuture<LockHandle> acquired, long[] acquiredAtNanos) {

		long acquiredAt(long timeoutSeconds) throws Exception {
			this.acquired.get(timeoutSeconds, TimeUnit.SECONDS);
			return this.acquiredAtNanos[0];
		}

		LockHandle handle() {
			return this.acquired.join();
		}

	}

}
