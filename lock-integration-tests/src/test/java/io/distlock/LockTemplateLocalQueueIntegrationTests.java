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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.HandoverLockClient;
import io.distlock.store.LockClient;
import io.distlock.test.CriticalSections;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Local queueing on one key against a real Redis: the threads of one template that wait
 * for the same key queue locally, and a release hands the lock to the next of them.
 */
class LockTemplateLocalQueueIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final Duration WAIT = Duration.ofSeconds(60);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private LockStack stack;

	private CountingHandoverClient client;

	private LockTemplate template;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void createTemplate() {
		redis.endpoint().flushAll();
		this.stack = application(LockStack.on(redis.endpoint()).templateClient(CountingHandoverClient::new));
		this.client = (CountingHandoverClient) this.stack.templateClient();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.threads.shutdownNow();
		this.stack.close();
	}

	@Test
	void givenSixteenThreadsOnOneKeyWhenTheyLoopThenSectionsNeverOverlapTokensIncreaseAndTheLockIsHandedOver()
			throws Exception {
		Sections sections = Sections.run(this.template, 16, 50);
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(16 * 50);
		assertThat(sections.tokensNotIncreasing.get()).isZero();
		assertThat(this.client.handedOver.get()).isPositive();
		assertThat(this.template.localQueues()).isZero();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void givenLocksThatAreNotRenewedWhenSixteenThreadsLoopOnOneKeyThenSectionsNeverOverlapAndTheLockIsHandedOver()
			throws Exception {
		Sections sections = Sections.run(this.template, LockRequest.of("k", TTL, WAIT).withAutoRenew(false), 16, 50);
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(16 * 50);
		assertThat(sections.tokensNotIncreasing.get()).isZero();
		assertThat(this.client.handedOver.get()).isPositive();
		assertThat(this.template.localQueues()).isZero();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void givenALockNotRenewedWhenItsHolderOutlivesItsTtlThenTheNextThreadOfThisApplicationTakesItAtItsLeaseEnd()
			throws Exception {
		LockHandle first = this.template
			.tryAcquire(LockRequest.of("k", Duration.ofMillis(500), WAIT).withAutoRenew(false))
			.orElseThrow();
		CompletableFuture<LockHandle> next = CompletableFuture.supplyAsync(
				() -> this.template.tryAcquire(LockRequest.of("k", TTL, WAIT).withAutoRenew(false)).orElseThrow(),
				this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1 || next.isDone());
		// The first holder runs on and has not released: the lease it asked for decides.
		try (LockHandle second = next.get(10, TimeUnit.SECONDS)) {
			assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
			first.close();
			assertThat(second.isHeld()).isTrue();
			assertThat((Long) redis.endpoint().command("PTTL", "lock:k"))
				.isGreaterThan(Duration.ofSeconds(1).toMillis());
		}
		assertThat(this.client.handedOver.get()).isZero();
		assertThat(this.template.localQueues()).isZero();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void givenSixteenThreadsOnOneKeyWhenQueuedLocallyThenRedisRunsFewerCommandsPerSectionThanWithoutTheQueue()
			throws Exception {
		LockStack withoutQueueStack = application(
				LockStack.on(this.stack.connectionFactory()).templateClient(PlainClient::new));
		this.closeables.add(withoutQueueStack::close);
		LockTemplate withoutQueue = withoutQueueStack.template();
		long before = commandsProcessed();
		Sections plain = Sections.run(withoutQueue, 16, 30);
		long plainCommands = commandsProcessed() - before;
		before = commandsProcessed();
		Sections queued = Sections.run(this.template, 16, 30);
		long queuedCommands = commandsProcessed() - before;
		assertThat(plain.overlaps() + queued.overlaps()).isZero();
		assertThat(this.client.handedOver.get()).isPositive();
		assertThat(queuedCommands).isLessThan(plainCommands);
	}

	@Test
	void givenThreadsHandingTheLockOverWhenAnotherApplicationWaitsThenItGetsTheLockWithinABoundedTime()
			throws Exception {
		LockStack otherApplication = application(LockStack.on(redis.endpoint()));
		this.closeables.add(otherApplication::close);
		LockTemplate other = otherApplication.template();
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(8);
		List<Future<?>> loops = new ArrayList<>();
		try {
			for (int i = 0; i < 8; i++) {
				loops.add(executor.submit(() -> {
					while (!stop.get()) {
						this.template.execute(LockRequest.of("k", TTL, WAIT), (lock) -> {
							section(inside, overlaps, 1);
							return null;
						});
					}
					return null;
				}));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> this.client.handedOver.get() > 20);
			long start = System.nanoTime();
			other.execute(LockRequest.of("k", TTL, Duration.ofSeconds(20)), (lock) -> {
				section(inside, overlaps, 1);
				return null;
			});
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		}
		finally {
			stop.set(true);
			for (Future<?> loop : loops) {
				loop.get(30, TimeUnit.SECONDS);
			}
			executor.shutdownNow();
		}
		assertThat(overlaps.get()).isZero();
	}

	@Test
	void givenALockHandedOverWhenHeldLongerThanItsTtlThenTheWatchdogRenewsItAndItsLossIsDetected() throws Exception {
		Duration ttl = Duration.ofMillis(600);
		LockHandle first = this.template.tryAcquire("k", ttl, WAIT).orElseThrow();
		CompletableFuture<LockHandle> handedOver = new CompletableFuture<>();
		CountDownLatch done = new CountDownLatch(1);
		// The lease of a lock taken by execute is renewed while its thread runs the code.
		Future<?> second = this.threads.submit(() -> this.template.execute(LockRequest.of("k", ttl, WAIT), (lock) -> {
			handedOver.complete(lock);
			done.await();
			return null;
		}));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		first.close();
		LockHandle lock = handedOver.get(5, TimeUnit.SECONDS);
		assertThat(this.client.handedOver.get()).isEqualTo(1);
		assertThat(lock.fencingToken()).isGreaterThan(first.fencingToken());
		Thread.sleep(ttl.toMillis() * 3);
		assertThat(lock.isHeld()).isTrue();
		assertThat((Long) redis.endpoint().command("PTTL", "lock:k")).isPositive();
		redis.endpoint().command("DEL", "lock:k");
		lock.whenLost().toCompletableFuture().get(5, TimeUnit.SECONDS);
		done.countDown();
		second.get(5, TimeUnit.SECONDS);
		assertThat(this.template.localQueues()).isZero();
	}

	@Test
	void givenAWaiterOfThisApplicationWhenAnotherApplicationAnnouncedItselfThenTheReleaseIsNotAHandover()
			throws Exception {
		LockStack otherApplication = application(LockStack.on(redis.endpoint()));
		this.closeables.add(otherApplication::close);
		LockTemplate other = otherApplication.template();
		LockHandle first = this.template.tryAcquire("k", TTL, WAIT).orElseThrow();
		Future<LockHandle> local = this.threads.submit(() -> this.template.tryAcquire("k", TTL, WAIT).orElseThrow());
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		Future<LockHandle> elsewhere = this.threads.submit(() -> other.tryAcquire("k", TTL, WAIT).orElseThrow());
		// It announced itself: it found the lock busy.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> !((List<?>) redis.endpoint().command("KEYS", "*waiters*")).isEmpty());
		first.close();
		assertThat(this.client.declined.get()).isEqualTo(1);
		assertThat(this.client.handedOver.get()).isZero();
		// Both get the lock, one after the other.
		LockHandle next = awaitEither(local, elsewhere);
		assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
		next.close();
		LockHandle last = (local.isDone() && next == local.get()) ? elsewhere.get(5, TimeUnit.SECONDS)
				: local.get(5, TimeUnit.SECONDS);
		assertThat(last.fencingToken()).isGreaterThan(next.fencingToken());
		last.close();
	}

	@Test
	void givenAWaiterInterruptedWhileTheLockIsHandedToItThenNoLockIsLeftBehind() throws Exception {
		LockHandle first = this.template.tryAcquire("k", TTL, WAIT).orElseThrow();
		AtomicReference<Thread> waiterThread = new AtomicReference<>();
		CompletableFuture<Throwable> waiter = CompletableFuture.supplyAsync(() -> {
			waiterThread.set(Thread.currentThread());
			try {
				this.template.tryAcquire("k", TTL, WAIT).ifPresent(LockHandle::close);
				return null;
			}
			catch (LockAcquisitionException ex) {
				return ex;
			}
		}, this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		this.client.holdNextHandover();
		CompletableFuture<Void> release = CompletableFuture.runAsync(first::close, this.threads);
		assertThat(this.client.handoverStarted.await(5, TimeUnit.SECONDS)).isTrue();
		waiterThread.get().interrupt();
		Thread.sleep(100);
		this.client.gate.countDown();
		release.get(5, TimeUnit.SECONDS);
		assertThat(waiter.get(5, TimeUnit.SECONDS)).isInstanceOf(LockAcquisitionException.class)
			.hasMessageContaining("Interrupted");
		assertThat(this.client.handedOver.get()).isEqualTo(1);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		assertThat(this.template.getEngine().getHeldLocks()).isEmpty();
		assertThat(this.template.localQueues()).isZero();
	}

	@Test
	void givenAWaiterWhoseWaitTimePassesWhileTheLockIsHandedToItThenNoLockIsLeftBehind() throws Exception {
		LockHandle first = this.template.tryAcquire("k", TTL, WAIT).orElseThrow();
		AtomicBoolean ran = new AtomicBoolean();
		CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
			try {
				this.template.execute(LockRequest.of("k", TTL, Duration.ofMillis(300)), (lock) -> {
					ran.set(true);
					return null;
				});
			}
			catch (LockAcquisitionException ex) {
				// Busy: the wait time passed.
			}
		}, this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		this.client.holdNextHandover();
		CompletableFuture<Void> release = CompletableFuture.runAsync(first::close, this.threads);
		assertThat(this.client.handoverStarted.await(5, TimeUnit.SECONDS)).isTrue();
		Thread.sleep(600);
		this.client.gate.countDown();
		release.get(5, TimeUnit.SECONDS);
		waiter.get(5, TimeUnit.SECONDS);
		assertThat(ran).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		assertThat(this.template.getEngine().getHeldLocks()).isEmpty();
		assertThat(this.template.localQueues()).isZero();
	}

	@Test
	void givenAHandoverThatFailsThenTheLockIsReleasedAsUsualAndTheWaiterTakesItInTheStore() throws Exception {
		LockHandle first = this.template.tryAcquire("k", TTL, WAIT).orElseThrow();
		Future<LockHandle> second = this.threads.submit(() -> this.template.tryAcquire("k", TTL, WAIT).orElseThrow());
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		this.client.failNextHandover = true;
		first.close();
		try (LockHandle handle = second.get(5, TimeUnit.SECONDS)) {
			assertThat(handle.fencingToken()).isGreaterThan(first.fencingToken());
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(this.client.handedOver.get()).isZero();
		assertThat(this.template.getEngine().getStatistics().getReleased()).isEqualTo(2);
		assertThat(this.template.getEngine().getStatistics().getReleaseMismatches()).isZero();
		assertThat(this.template.localQueues()).isZero();
	}

	@Test
	void givenAFailedHandoverWhenGivingTheLockBackIsSlowThenTheWaiterStillGivesUpAtItsDeadline() throws Exception {
		this.client.failNextHandover = true;
		waiterGivesUpWhileTheHolderReleasesSlowly();
	}

	@Test
	void givenADeclinedHandoverWhenReleasingIsSlowThenTheWaiterStillGivesUpAtItsDeadline() throws Exception {
		this.client.declineNextHandover = true;
		waiterGivesUpWhileTheHolderReleasesSlowly();
	}

	/**
	 * A hand-over that did not happen leaves the holder one or two store calls to give
	 * the lock back; the waiter it was meant for waits no longer than its wait time plus
	 * the hand-over call.
	 */
	private void waiterGivesUpWhileTheHolderReleasesSlowly() throws Exception {
		LockHandle first = this.template.tryAcquire("k", TTL, WAIT).orElseThrow();
		CompletableFuture<Boolean> waiter = CompletableFuture
			.supplyAsync(() -> this.template.tryAcquire("k", TTL, Duration.ofMillis(300)).map((handle) -> {
				handle.close();
				return true;
			}).orElse(false), this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		this.client.releaseGate = new CountDownLatch(1);
		CompletableFuture<Void> release = CompletableFuture.runAsync(first::close, this.threads);
		try {
			assertThat(waiter.get(5, TimeUnit.SECONDS)).isFalse();
			assertThat(release).isNotDone();
		}
		finally {
			this.client.releaseGate.countDown();
		}
		release.get(5, TimeUnit.SECONDS);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		assertThat(this.template.getEngine().getHeldLocks()).isEmpty();
		assertThat(this.template.localQueues()).isZero();
	}

	@Test
	void givenAWaiterThatTimesOutInTheQueueThenTheNextOneStillGetsTheLock() throws Exception {
		LockHandle first = this.template.tryAcquire("k", TTL, WAIT).orElseThrow();
		CompletableFuture<Boolean> impatient = CompletableFuture
			.supplyAsync(() -> this.template.tryAcquire("k", TTL, Duration.ofSeconds(1)).isPresent(), this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		CompletableFuture<LockHandle> patient = CompletableFuture
			.supplyAsync(() -> this.template.tryAcquire("k", TTL, WAIT).orElseThrow(), this.threads);
		assertThat(impatient.get(5, TimeUnit.SECONDS)).isFalse();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.template.localWaiters("k") == 1);
		first.close();
		try (LockHandle handle = patient.get(5, TimeUnit.SECONDS)) {
			assertThat(handle.fencingToken()).isGreaterThan(first.fencingToken());
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(this.client.handedOver.get()).isEqualTo(1);
		assertThat(this.template.localQueues()).isZero();
	}

	private static LockStack application(LockStack.Builder application) {
		return application.waiterBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).build();
	}

	private static LockHandle awaitEither(Future<LockHandle> one, Future<LockHandle> other) {
		await().atMost(Duration.ofSeconds(5)).until(() -> one.isDone() || other.isDone());
		try {
			return one.isDone() ? one.get() : other.get();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static long commandsProcessed() {
		String info = (String) redis.endpoint().command("INFO", "stats");
		for (String line : info.split("\r\n")) {
			if (line.startsWith("total_commands_processed:")) {
				return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		throw new IllegalStateException("No total_commands_processed in " + info);
	}

	private static void section(AtomicInteger inside, AtomicInteger overlaps, long millis) {
		if (inside.incrementAndGet() != 1) {
			overlaps.incrementAndGet();
		}
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			inside.decrementAndGet();
		}
	}

	/**
	 * Critical sections on one key from many threads ({@link CriticalSections}, which
	 * counts overlaps and lost updates), with the fencing token checked in each.
	 */
	private static final class Sections {

		private final AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);

		final AtomicInteger tokensNotIncreasing = new AtomicInteger();

		private CriticalSections critical;

		static Sections run(LockTemplate template, int threads, int perThread) throws Exception {
			return run(template, LockRequest.of("k", TTL, WAIT), threads, perThread);
		}

		static Sections run(LockTemplate template, LockRequest request, int threads, int perThread) throws Exception {
			Sections sections = new Sections();
			sections.critical = CriticalSections.run(threads, perThread,
					(section) -> template.execute(request, (lock) -> {
						if (sections.lastToken.getAndSet(lock.fencingToken()) >= lock.fencingToken()) {
							sections.tokensNotIncreasing.incrementAndGet();
						}
						section.run();
						return null;
					}));
			return sections;
		}

		int overlaps() {
			return this.critical.overlaps();
		}

		int count() {
			return this.critical.count();
		}

	}

	/**
	 * The Redis store, counting the outcomes of hand-overs, and able to hold one
	 * hand-over back until its gate opens, so that a test can act while it is in flight.
	 */
	private static final class CountingHandoverClient extends PlainClient implements HandoverLockClient {

		private final RedisLockClient handovers;

		final AtomicInteger handedOver = new AtomicInteger();

		final AtomicInteger declined = new AtomicInteger();

		volatile CountDownLatch gate = new CountDownLatch(0);

		volatile boolean failNextHandover;

		volatile boolean declineNextHandover;

		// Releases (and the giving back of a failed hand-over) wait for it.
		volatile CountDownLatch releaseGate = new CountDownLatch(0);

		volatile CountDownLatch handoverStarted = new CountDownLatch(1);

		CountingHandoverClient(RedisLockClient delegate) {
			super(delegate);
			this.handovers = delegate;
		}

		void holdNextHandover() {
			this.handoverStarted = new CountDownLatch(1);
			this.gate = new CountDownLatch(1);
		}

		@Override
		public Handover handOver(String key, String ownerToken, String newOwnerToken, Duration ttl) {
			this.handoverStarted.countDown();
			pass(this.gate);
			if (this.failNextHandover) {
				this.failNextHandover = false;
				throw new LockBackendException(key, "Redis did not answer the hand-over of '" + key + "'", null);
			}
			if (this.declineNextHandover) {
				this.declineNextHandover = false;
				this.declined.incrementAndGet();
				return new Declined();
			}
			Handover outcome = this.handovers.handOver(key, ownerToken, newOwnerToken, ttl);
			if (outcome instanceof HandedOver) {
				this.handedOver.incrementAndGet();
			}
			else if (outcome instanceof Declined) {
				this.declined.incrementAndGet();
			}
			return outcome;
		}

		@Override
		public boolean release(String key, String ownerToken) {
			pass(this.releaseGate);
			return super.release(key, ownerToken);
		}

		private static void pass(CountDownLatch gate) {
			try {
				gate.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * The Redis store without hand-overs, so that threads do not queue locally; the base
	 * of the counting client, which adds them.
	 */
	private static class PlainClient implements LockClient {

		private final LockClient delegate;

		PlainClient(LockClient delegate) {
			this.delegate = delegate;
		}

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			return this.delegate.tryAcquire(key, ownerToken, ttl);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return this.delegate.release(key, ownerToken);
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			return this.delegate.renew(key, ownerToken, ttl);
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return this.delegate.isHeld(key, ownerToken);
		}

	}

}
