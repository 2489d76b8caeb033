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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockSettings;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.store.Renewal;
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
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for lease renewal and lost-lock detection in {@link LockTemplate}.
 */
class LockTemplateRenewalIntegrationTests {

	private static final Duration TTL = Duration.ofMillis(600);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final List<String> lost = new CopyOnWriteArrayList<>();

	private final List<Long> lostAtNanos = new CopyOnWriteArrayList<>();

	private LettuceConnectionFactory connectionFactory;

	private RecordingClient client;

	private LeaseRenewer renewer;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RecordingClient(new RedisLockClient(this.connectionFactory));
		this.renewer = new LeaseRenewer(this.client, Duration.ofHours(1));
		this.template = templateWith(this.renewer);
	}

	@AfterEach
	void destroyTemplate() {
		this.renewer.close();
		this.connectionFactory.destroy();
	}

	@Test
	void lockLostWhileRedisIsPausedIsReportedAndIsHeldSaysSoWithoutAskingRedis() {
		assumeThat(redis.endpoint().isControllable()).isTrue();
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		redis.endpoint().pause();
		try {
			await().atMost(Duration.ofSeconds(5)).until(() -> !this.lost.isEmpty());
			assertThat(this.lost).containsExactly("k");
			assertThat(this.template.getEngine().getStatistics().getLost()).isEqualTo(1);
			long start = System.nanoTime();
			assertThat(handle.isHeld()).isFalse();
			assertThat(System.nanoTime() - start).as("answered while Redis is paused")
				.isLessThan(TimeUnit.MILLISECONDS.toNanos(500));
		}
		finally {
			redis.endpoint().resume();
		}
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void lockWhoseRenewalHangsOnAFrozenRedisIsReportedLostWhenItsLeaseRunsOutNotAtTheCommandTimeout() {
		assumeThat(redis.endpoint().isControllable()).isTrue();
		LettuceConnectionFactory factory = RedisConnections.connectionFactory(redis.endpoint(), Duration.ofSeconds(10));
		RecordingClient client = new RecordingClient(new RedisLockClient(factory));
		try (LeaseRenewer renewer = new LeaseRenewer(client, Duration.ofHours(1))) {
			LockTemplate template = templateWith(client, renewer);
			long start = System.nanoTime();
			LockHandle handle = template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
			// Frozen before the first renewal (after ttl/3): that call waits for the 10s
			// timeout.
			redis.endpoint().pause();
			try {
				await().atMost(Duration.ofSeconds(5)).until(() -> !this.lost.isEmpty());
				// The lease ran out ttl after the acquisition was sent, so no sooner than
				// ttl after start. 300ms allow for the hop to a listener thread and a
				// busy
				// machine, and are still far below the 10s the renewal call waits.
				assertThat(this.lostAtNanos.get(0) - start).isBetween(TTL.minusMillis(5).toNanos(),
						TTL.plusMillis(300).toNanos());
				assertThat(this.lost).containsExactly("k");
				assertThat(handle.isHeld()).isFalse();
			}
			finally {
				redis.endpoint().resume();
			}
			// The renewal that waited answers now, too late to count.
			await().atMost(Duration.ofSeconds(15)).until(() -> client.answered.get() >= 1);
			assertThat(this.lost).containsExactly("k");
			assertThat(renewer.size()).isZero();
			assertThat(handle.isHeld()).isFalse();
			handle.close();
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void redisUnreachableForLessThanTheLeaseDoesNotLoseTheLock() throws Exception {
		assumeThat(redis.endpoint().isControllable()).isTrue();
		LettuceConnectionFactory factory = RedisConnections.connectionFactory(redis.endpoint(), Duration.ofMillis(300));
		RecordingClient client = new RecordingClient(new RedisLockClient(factory));
		try (LeaseRenewer renewer = new LeaseRenewer(client, Duration.ofHours(1))) {
			LockTemplate template = templateWith(renewer);
			Duration ttl = Duration.ofMillis(6000);
			try (LockHandle handle = template.tryAcquire("k", ttl, Duration.ZERO).orElseThrow()) {
				// The renewal due after 2s times out (300ms) and is retried as Redis
				// comes
				// back, well within the lease: the pause ends within 4s of the 6s lease,
				// which leaves a loaded machine 2s for the retry.
				redis.endpoint().pause();
				try {
					await().atMost(Duration.ofSeconds(4)).until(() -> client.failedRenewals > 0);
				}
				finally {
					redis.endpoint().resume();
				}
				long renewals = client.renewed.size();
				await().atMost(Duration.ofSeconds(5)).until(() -> client.renewed.size() > renewals);
				assertThat(handle.isHeld()).isTrue();
				assertThat(client.failedRenewals).isPositive();
			}
		}
		finally {
			factory.destroy();
		}
		assertThat(this.lost).isEmpty();
	}

	@Test
	void thousandRenewedLocksStayHeldOnAFewSharedThreadsAndNothingIsLeftAfterRelease() throws Exception {
		this.template.tryAcquire("warm-up", TTL, Duration.ZERO).orElseThrow().close();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		List<LockHandle> handles = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			handles.add(this.template.tryAcquire("k" + i, TTL, Duration.ZERO).orElseThrow());
		}
		// At most the ticking thread and four renewal-call threads, whatever the number
		// of
		// locks.
		assertThat(ManagementFactory.getThreadMXBean().getThreadCount()).isLessThanOrEqualTo(threadsBefore + 5);
		assertThat(this.renewer.size()).isEqualTo(1000);
		long renewals = this.client.renewed.size();
		// Four renewal periods (200ms each): longer than the ttl.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.client.renewed.size() >= renewals + 4 * 1000);
		for (LockHandle handle : handles) {
			assertThat(handle.isHeld()).as(handle.key()).isTrue();
		}
		assertThat(this.lost).isEmpty();
		assertThat(this.client.renewingThreads).hasSizeBetween(1, 4);
		handles.forEach(LockHandle::close);
		assertThat(this.renewer.size()).isZero();
		assertThat(redis.endpoint().command("EXISTS", "lock:k0", "lock:k999")).isEqualTo(0L);
	}

	@Test
	void leaseOfTheRenewalMinimumStaysHeldAcrossSeveralRenewals() {
		Duration ttl = LockRequest.MIN_RENEWED_TTL;
		AtomicBoolean takenByAnother = new AtomicBoolean();
		try (LockHandle handle = this.template.tryAcquire("minimum", ttl, Duration.ZERO).orElseThrow()) {
			// Nine renewals, one every third of the ttl: three ttls, through which
			// another client tries to take the key every 10ms.
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
				if (redis.endpoint()
					.command("SET", "lock:minimum", UUID.randomUUID().toString(), "NX", "PX", "10000") != null) {
					takenByAnother.set(true);
				}
				return takenByAnother.get() || this.client.renewed.size() >= 9;
			});
			assertThat(takenByAnother).as("lock:minimum taken by another client while held").isFalse();
			assertThat(this.lost).isEmpty();
			assertThat(handle.isHeld()).isTrue();
		}
	}

	@Test
	void whenLostCompletesWhenTheLockKeyIsRemovedWhileHeld() {
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		CompletableFuture<Void> lost = handle.whenLost().toCompletableFuture();
		assertThat(lost).isNotDone();
		redis.endpoint().command("DEL", "lock:k");
		// The next renewal (after ttl/3) finds the key gone.
		await().atMost(Duration.ofSeconds(5)).until(lost::isDone);
		assertThat(lost).isCompleted();
		assertThat(this.lost).containsExactly("k");
		handle.close();
	}

	@Test
	void whenLostStaysIncompleteAfterANormalRelease() {
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		CompletableFuture<Void> lost = handle.whenLost().toCompletableFuture();
		// Renewed at least twice first, so the lease outlived its ttl's first third.
		long renewals = this.client.renewed.size();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewed.size() >= renewals + 2);
		handle.close();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		// Past the released lease's ttl: nothing reports it lost.
		await().pollDelay(TTL.multipliedBy(2)).atMost(Duration.ofSeconds(5)).until(() -> true);
		assertThat(lost).isNotDone();
		assertThat(this.lost).isEmpty();
	}

	@Test
	void releaseCancelsTheRenewalBeforeTheReleaseScriptRuns() throws Exception {
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewed.contains("lock:k"));
		handle.close();
		assertThat(this.client.leasesWhenReleased).containsExactly(0);
		int renewalsAtRelease = this.client.renewed.size();
		// Two renewal periods: no renewal of the released lock goes out any more.
		Thread.sleep(TTL.toMillis() * 2 / 3);
		assertThat(this.client.renewed.size()).isEqualTo(renewalsAtRelease);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void lockOfAHolderThreadThatEndedIsReportedLostAndExpires() throws Exception {
		AtomicReference<LockHandle> handle = new AtomicReference<>();
		Thread holder = new Thread(() -> handle.set(this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()));
		holder.start();
		holder.join();
		long endedAt = System.nanoTime();
		awaitAcquirableByAnotherClient("lock:k");
		assertThat(System.nanoTime() - endedAt).isLessThan(TTL.toNanos() + TimeUnit.MILLISECONDS.toNanos(300));
		assertThat(this.renewer.size()).isZero();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.lost.isEmpty());
		assertThat(this.lost).containsExactly("k");
		assertThat(handle.get().isHeld()).isFalse();
		assertThat(this.template.getEngine().getStatistics().getLost()).isOne();
	}

	@Test
	void lockHeldLongerThanTheMaximumHoldTimeIsReportedLostOnceAndExpires() {
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofMillis(700))) {
			LockTemplate template = templateWith(renewer);
			long start = System.nanoTime();
			Duration ttl = LockRequest.MIN_RENEWED_TTL;
			try (LockHandle handle = template.tryAcquire("k", ttl, Duration.ZERO).orElseThrow()) {
				awaitAcquirableByAnotherClient("lock:k");
				long expiredAfter = System.nanoTime() - start;
				// Renewed until the maximum hold, at most a renewal period (ttl/3) later,
				// then left to run out.
				assertThat(expiredAfter).isBetween(TimeUnit.MILLISECONDS.toNanos(700),
						TimeUnit.MILLISECONDS.toNanos(700 + ttl.dividedBy(3).toMillis() + ttl.toMillis() + 200));
				assertThat(renewer.size()).isZero();
				assertThat(this.lost).containsExactly("k");
				assertThat(handle.isHeld()).isFalse();
			}
		}
		assertThat(this.lost).containsExactly("k");
	}

	@Test
	void holderInterruptedBrieflyKeepsItsLockRenewed() {
		Duration ttl = LockRequest.MIN_RENEWED_TTL;
		this.template.execute("k", ttl, Duration.ZERO, () -> {
			Thread.currentThread().interrupt();
			// Longer than a renewal period (ttl/3): a renewal comes while the flag is
			// set.
			spin(ttl.dividedBy(2));
			assertThat(Thread.interrupted()).isTrue();
			assertHeldAgainstAnotherClient("lock:k", ttl.multipliedBy(3));
			return null;
		});
		assertThat(this.lost).isEmpty();
	}

	@Test
	void outerLockOfAThreadInterruptedOnALostInnerLockKeepsBeingRenewed() {
		Duration ttl = LockRequest.MIN_RENEWED_TTL;
		// The README's reaction to a lost lock: interrupt its holder.
		LockTemplate template = templateWith(this.client, this.renewer, new LockListener() {

			@Override
			public void onLost(LockEvent.Lost event) {
				event.holder().interrupt();
			}

		});
		template.execute("outer", ttl, Duration.ZERO, () -> {
			try {
				template.execute("inner", ttl, Duration.ZERO, () -> {
					redis.endpoint().command("DEL", "lock:inner");
					workUntilInterrupted(ttl);
					return null;
				});
			}
			catch (IllegalStateException ex) {
				// The inner work stopped; the outer code handles that and carries on.
				assertThat(Thread.interrupted()).isTrue();
			}
			assertHeldAgainstAnotherClient("lock:outer", ttl.multipliedBy(3));
			return null;
		});
		assertThat(this.lost).containsExactly("inner");
	}

	@Test
	void reenteringALockKnownLostThrowsAndDoesNotRunTheNestedCode() {
		AtomicBoolean nestedRan = new AtomicBoolean();
		this.template.execute("k", TTL, Duration.ZERO, () -> {
			redis.endpoint().command("DEL", "lock:k");
			await().atMost(Duration.ofSeconds(5)).until(() -> !this.lost.isEmpty());
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> this.template.execute("k", TTL, Duration.ZERO, () -> {
					nestedRan.set(true);
					return null;
				}))
				.withMessageContaining("'k'")
				.withMessageContaining("lost");
			return null;
		});
		assertThat(nestedRan).isFalse();
	}

	private static void workUntilInterrupted(Duration step) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		// Works in steps, looking at the interrupt flag between them, as a batch job
		// does.
		while (!Thread.currentThread().isInterrupted()) {
			assertThat(System.nanoTime()).as("interrupted in time").isLessThan(deadline);
			spin(step.dividedBy(4));
		}
		// Finishes the step under way, with the flag still set, then gives up.
		spin(step.dividedBy(2));
		throw new IllegalStateException("Inner lock lost: work stopped");
	}

	private static void spin(Duration duration) {
		// Not Thread.sleep: an interrupted sleep returns at once.
		long end = System.nanoTime() + duration.toNanos();
		while (System.nanoTime() < end) {
			Thread.onSpinWait();
		}
	}

	private static void assertHeldAgainstAnotherClient(String resource, Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		while (System.nanoTime() < end) {
			assertThat(redis.endpoint().command("SET", resource, UUID.randomUUID().toString(), "NX", "PX", "10000"))
				.as("%s taken by another client", resource)
				.isNull();
			spin(Duration.ofMillis(10));
		}
	}

	private LockTemplate templateWith(LeaseRenewer renewer) {
		return templateWith(this.client, renewer);
	}

	private LockTemplate templateWith(LockClient client, LeaseRenewer renewer, LockListener... listeners) {
		List<LockListener> all = new ArrayList<>();
		all.add(new LockListener() {

			@Override
			public void onLost(LockEvent.Lost event) {
				LockTemplateRenewalIntegrationTests.this.lostAtNanos.add(System.nanoTime());
				LockTemplateRenewalIntegrationTests.this.lost.add(event.key());
			}

		});
		all.addAll(List.of(listeners));
		return new LockTemplate(new LockEngine(client, new LockWaiter(Duration.ofMillis(500)),
				LockSettings.builder().lockListeners(all).build(), renewer));
	}

	private void awaitAcquirableByAnotherClient(String resource) {
		RedisEndpoint endpoint = redis.endpoint();
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> "OK"
				.equals(endpoint.command("SET", resource, UUID.randomUUID().toString(), "NX", "PX", "10000")));
	}

	/**
	 * A {@link LockClient} passing everything to Redis, recording renewals and how many
	 * leases were still being renewed when a release began.
	 */
	private final class RecordingClient implements LockClient {

		final List<String> renewed = new CopyOnWriteArrayList<>();

		final List<Integer> leasesWhenReleased = new CopyOnWriteArrayList<>();

		final List<Thread> renewingThreads = new CopyOnWriteArrayList<>();

		final AtomicInteger answered = new AtomicInteger();

		volatile int failedRenewals;

		private final LockClient delegate;

		RecordingClient(LockClient delegate) {
			this.delegate = delegate;
		}

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			return this.delegate.tryAcquire(key, ownerToken, ttl);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			this.leasesWhenReleased.add(LockTemplateRenewalIntegrationTests.this.renewer.size());
			return this.delegate.release(key, ownerToken);
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException("renewed in batches");
		}

		@Override
		public boolean[] renewAll(List<Renewal> renewals) {
			if (!this.renewingThreads.contains(Thread.currentThread())) {
				this.renewingThreads.add(Thread.currentThread());
			}
			try {
				boolean[] result = this.delegate.renewAll(renewals);
				renewals.forEach((renewal) -> this.renewed.add(renewal.key()));
				return result;
			}
			catch (RuntimeException ex) {
				this.failedRenewals++;
				throw ex;
			}
			finally {
				this.answered.incrementAndGet();
			}
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return this.delegate.isHeld(key, ownerToken);
		}

	}

}
