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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for concurrency limits (a key with a number of permits) through
 * {@link LockTemplate}, by two applications on one real Redis server: never more holders
 * than permits, each permit a lease of its own that is renewed while held and returns
 * after its ttl when its holder is gone, and waiters woken by a release.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockTemplatePermitsIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	// No test waits this long: a waiter that gets a permit sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofMinutes(1);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private TemplateApplication first;

	private TemplateApplication second;

	@BeforeEach
	void startApplications() {
		this.first = TemplateApplication.start(redis.endpoint());
		this.second = TemplateApplication.start(redis.endpoint());
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
	}

	@Test
	void neverMoreThanThePermittedHoldersAtOnceUnderLoadFromTwoApplications() throws Exception {
		int permits = 3;
		int threads = 12;
		int perThread = 10;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger mostHolders = new AtomicInteger();
		AtomicInteger runs = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				LockTemplate template = ((t % 2) == 0) ? this.first.template : this.second.template;
				work.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						template.execute(permits("exports", permits, Duration.ofSeconds(40)), (permit) -> {
							mostHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
							Thread.sleep(ThreadLocalRandom.current().nextInt(2, 8));
							holders.decrementAndGet();
							return runs.incrementAndGet();
						});
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(50, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(runs).hasValue(threads * perThread);
		// At most the permits, and the limit was reached: twelve threads keep it busy.
		assertThat(mostHolders.get()).as("most holders at once").isEqualTo(permits);
		assertThat(redis.endpoint().command("EXISTS", permitsKey("exports"))).as("permits left behind").isEqualTo(0L);
	}

	@Test
	void asManyHoldersAsPermitsHoldAtOnceWithTheirOwnFencingTokensAndTheNextIsRefused() throws Exception {
		int permits = 3;
		CountDownLatch allInside = new CountDownLatch(permits);
		CountDownLatch checked = new CountDownLatch(1);
		Set<Long> tokens = ConcurrentHashMap.newKeySet();
		ExecutorService executor = Executors.newFixedThreadPool(permits);
		try {
			List<Future<Boolean>> holders = new ArrayList<>();
			for (int i = 0; i < permits; i++) {
				LockTemplate template = ((i % 2) == 0) ? this.first.template : this.second.template;
				holders
					.add(executor.submit(() -> template.execute(permits("limit", permits, Duration.ZERO), (permit) -> {
						tokens.add(permit.fencingToken());
						allInside.countDown();
						return checked.await(20, TimeUnit.SECONDS);
					})));
			}
			assertThat(allInside.await(10, TimeUnit.SECONDS)).as("all holders inside at once").isTrue();
			assertThat(this.first.template.tryAcquire(permits("limit", permits, Duration.ZERO))).isEmpty();
			assertThat(this.second.template.tryAcquire(permits("limit", permits, Duration.ZERO))).isEmpty();
			checked.countDown();
			for (Future<Boolean> holder : holders) {
				assertThat(holder.get(10, TimeUnit.SECONDS)).isTrue();
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(tokens).hasSize(permits);
		this.first.template.tryAcquire(permits("limit", permits, Duration.ZERO)).orElseThrow().close();
	}

	@Test
	void permitOfAKilledHolderReturnsAfterItsTtl() {
		try (LockHandle staying = this.first.template.tryAcquire(permits("jobs", 2, Duration.ZERO)).orElseThrow()) {
			TemplateApplication killed = TemplateApplication.start(redis.endpoint());
			killed.template.tryAcquire(LockRequest.of("jobs", Duration.ofMillis(500), Duration.ZERO).withPermits(2))
				.orElseThrow();
			// Its renewer stops and its connections close, and nothing is released.
			killed.close();
			assertThat(this.second.template.tryAcquire(permits("jobs", 2, Duration.ZERO))).isEmpty();
			try (LockHandle next = this.second.template.tryAcquire(permits("jobs", 2, Duration.ofSeconds(10)))
				.orElseThrow()) {
				assertThat(next.isHeld()).isTrue();
				assertThat(staying.isHeld()).isTrue();
			}
		}
	}

	@Test
	void permitWithoutRenewalIsFreedAfterItsTtlWithoutARelease() {
		LockHandle abandoned = this.first.template
			.tryAcquire(
					LockRequest.of("batch", Duration.ofMillis(300), Duration.ZERO).withPermits(2).withAutoRenew(false))
			.orElseThrow();
		try (LockHandle other = this.first.template.tryAcquire(permits("batch", 2, Duration.ZERO)).orElseThrow()) {
			assertThat(this.second.template.tryAcquire(permits("batch", 2, Duration.ZERO))).isEmpty();
			try (LockHandle next = this.second.template.tryAcquire(permits("batch", 2, Duration.ofSeconds(10)))
				.orElseThrow()) {
				assertThat(abandoned.isHeld()).isFalse();
				assertThat(other.isHeld()).isTrue();
			}
		}
	}

	@Test
	void permitsAreRenewedWhileHeldPastTheirTtl() {
		LockRequest shortLease = LockRequest.of("renewed", LockRequest.MIN_RENEWED_TTL, Duration.ZERO).withPermits(2);
		try (LockHandle one = this.first.template.tryAcquire(shortLease).orElseThrow();
				LockHandle other = this.second.template.tryAcquire(shortLease).orElseThrow()) {
			await().during(Duration.ofMillis(1500))
				.atMost(Duration.ofSeconds(3))
				.until(() -> one.isHeld() && other.isHeld());
			assertThat(this.first.template.tryAcquire(permits("renewed", 2, Duration.ZERO))).isEmpty();
			assertThat((Long) redis.endpoint().command("PTTL", permitsKey("renewed"))).isBetween(1L,
					LockRequest.MIN_RENEWED_TTL.toMillis());
		}
		assertThat(redis.endpoint().command("EXISTS", permitsKey("renewed"))).isEqualTo(0L);
		assertThat(this.first.renewer.size()).isZero();
		assertThat(this.second.renewer.size()).isZero();
	}

	@Test
	void waiterIsWokenByAReleaseWhileTheOtherHoldersKeepTheirPermits() throws Exception {
		try (TemplateApplication patient = TemplateApplication.start(redis.endpoint(),
				new LockWaiter(LONG_BACKOFF, LONG_BACKOFF))) {
			LockRequest oneMinute = LockRequest.of("woken", Duration.ofMinutes(1), Duration.ZERO).withPermits(2);
			LockHandle leaving = this.first.template.tryAcquire(oneMinute).orElseThrow();
			LockHandle staying = this.second.template.tryAcquire(oneMinute).orElseThrow();
			List<String> events = new CopyOnWriteArrayList<>();
			CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
				try (LockHandle permit = patient.template
					.tryAcquire(LockRequest.of("woken", TTL, LONG_BACKOFF).withPermits(2))
					.orElseThrow()) {
					events.add("acquired");
					return staying.isHeld();
				}
			}, (task) -> new Thread(task).start());
			await().atMost(Duration.ofSeconds(5)).until(() -> patient.waiter.isWaitedFor("lock:woken"));
			events.add("released");
			leaving.close();
			// The holders' leases and the waiter's backoff are a minute: only the release
			// wakes it.
			assertThat(waiting.get(10, TimeUnit.SECONDS)).as("other holder still held its permit").isTrue();
			assertThat(events).containsExactly("released", "acquired");
			staying.close();
		}
	}

	@Test
	void permitHandleTellsWhetherItIsHeldAndCompletesWhenLostOnceItsLeaseIsRemoved() throws Exception {
		try (LockHandle permit = this.first.template
			.tryAcquire(LockRequest.of("watched", LockRequest.MIN_RENEWED_TTL, Duration.ZERO).withPermits(3))
			.orElseThrow()) {
			assertThat(permit.isHeld()).isTrue();
			assertThat(this.first.template.getEngine().getHeldLocks()).singleElement()
				.satisfies((held) -> assertThat(held.permits()).isEqualTo(3));
			CompletableFuture<Void> lost = permit.whenLost().toCompletableFuture();
			await().during(LockRequest.MIN_RENEWED_TTL.plusMillis(400))
				.atMost(Duration.ofSeconds(3))
				.until(permit::isHeld);
			assertThat(lost).isNotDone();
			redis.endpoint().command("DEL", permitsKey("watched"));
			lost.get(5, TimeUnit.SECONDS);
			assertThat(permit.isHeld()).isFalse();
		}
		LockHandle released = this.first.template.tryAcquire(permits("watched", 3, Duration.ZERO)).orElseThrow();
		released.close();
		assertThat(released.isHeld()).isFalse();
		assertThat(released.whenLost().toCompletableFuture()).isNotDone();
	}

	private static LockRequest permits(String key, int permits, Duration waitTime) {
		return LockRequest.of(key, TTL, waitTime).withPermits(permits);
	}

	private static String permitsKey(String key) {
		return "{lock:" + key + "}\u001fpermits\u001flock:" + key;
	}

}
