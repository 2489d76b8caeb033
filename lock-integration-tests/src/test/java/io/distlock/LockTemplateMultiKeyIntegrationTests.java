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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for locking several keys at once through {@link LockTemplate}, by two
 * applications on one real Redis server: all keys or none, in their global order, never
 * waiting while holding one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockTemplateMultiKeyIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	// No test waits this long: a waiter that gets its keys sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofMinutes(1);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private TemplateApplication first;

	private TemplateApplication second;

	// Retries only when woken by a release (or after a minute).
	private TemplateApplication patient;

	@BeforeEach
	void startApplications() {
		this.first = TemplateApplication.start(redis.endpoint());
		this.second = TemplateApplication.start(redis.endpoint());
		this.patient = TemplateApplication.start(redis.endpoint(), new LockWaiter(LONG_BACKOFF, LONG_BACKOFF));
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
		this.patient.close();
	}

	@Test
	void overlappingCallsWithKeysInOppositeOrdersFromManyThreadsOfTwoApplicationsFinishAndNeverOverlapOnAKey()
			throws Exception {
		// {a,b} and {b,a} would deadlock if taken in the given order while waiting with
		// one held; {b,c} and {c,a} close a cycle of three.
		List<List<String>> keySets = List.of(List.of("a", "b"), List.of("b", "a"), List.of("b", "c"), List.of("c", "a"),
				List.of("c", "b", "a"));
		int threads = 10;
		int perThread = 15;
		KeySections sections = new KeySections();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				// Threads t and t + 5 share a key set but not an application.
				LockTemplate template = ((t % 2) == 0) ? this.first.template : this.second.template;
				List<String> keys = keySets.get(t % keySets.size());
				MultiLockRequest request = MultiLockRequest.of(keys, TTL, Duration.ofSeconds(40));
				work.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						template.executeAll(request, (locks) -> {
							assertThat(locks.keys()).isSortedAccordingTo(String::compareTo)
								.containsExactlyInAnyOrderElementsOf(keys);
							sections.run(locks.keys());
							return null;
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
		for (String key : List.of("a", "b", "c")) {
			assertThat(sections.overlaps(key)).as("overlaps on %s", key).isZero();
			assertThat(sections.count(key)).as("sections on %s", key).isEqualTo(sections.expected(key));
		}
		assertThat(sections.expected("a")).isEqualTo(8 * perThread);
		assertThat(redis.endpoint().command("EXISTS", "lock:a", "lock:b", "lock:c")).as("locks left behind")
			.isEqualTo(0L);
	}

	@Test
	void callsWithDisjointKeysHoldTheirKeysAtTheSameTime() throws Exception {
		// Each callback waits for the other inside: they meet only if both hold at once.
		CyclicBarrier bothInside = new CyclicBarrier(2);
		CompletableFuture<Integer> one = inThread(
				() -> this.first.template.executeAll(MultiLockRequest.of(List.of("d1", "d2"), TTL, Duration.ZERO),
						(locks) -> bothInside.await(10, TimeUnit.SECONDS)));
		CompletableFuture<Integer> other = inThread(
				() -> this.second.template.executeAll(MultiLockRequest.of(List.of("d4", "d3"), TTL, Duration.ZERO),
						(locks) -> bothInside.await(10, TimeUnit.SECONDS)));
		assertThat(List.of(one.get(20, TimeUnit.SECONDS), other.get(20, TimeUnit.SECONDS))).containsExactlyInAnyOrder(0,
				1);
	}

	@Test
	void busyKeyMakesTryAcquireAllWithoutWaitingReturnEmptyAndGivesBackTheKeysTakenBeforeIt() {
		try (LockHandle holder = this.second.template.tryAcquire("z3", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(this.first.template
				.tryAcquireAll(MultiLockRequest.of(List.of("z3", "z1", "z2"), TTL, Duration.ZERO))).isEmpty();
			// z1 and z2 come before z3 in the global order, so they were taken (their
			// fencing counters exist) and then given back.
			assertThat(redis.endpoint().command("EXISTS", fence("z1"), fence("z2"))).isEqualTo(2L);
			assertThat(redis.endpoint().command("EXISTS", "lock:z1", "lock:z2")).isEqualTo(0L);
			assertThat(this.second.template.getEngine().inspect("z1").held()).isFalse();
			assertThat(this.second.template.getEngine().inspect("z2").held()).isFalse();
			assertThat(this.second.template.getEngine().inspect("z3").held()).isTrue();
			assertThat(this.first.template.getEngine().getHeldLocks()).isEmpty();
		}
	}

	@Test
	void givenACollectionOfKeysThenTryAcquireAllHoldsEachWithItsTokenAndExecuteAllRunsUnderAll() {
		try (MultiLockHandle locks = this.first.template.tryAcquireAll(Set.of("c2", "c1"), TTL, Duration.ZERO)
			.orElseThrow()) {
			assertThat(locks.keys()).containsExactly("c1", "c2");
			assertThat(locks.fencingToken("c1")).isEqualTo(locks.locks().get(0).fencingToken());
			assertThat(this.second.template.tryAcquire("c2", TTL, Duration.ZERO)).isEmpty();
		}
		String held = this.first.template.executeAll(List.of("c3", "c1"), TTL, Duration.ZERO,
				() -> LockContext.held().stream().map(LockHandle::key).sorted().toList().toString());
		assertThat(held).isEqualTo("[c1, c3]");
		assertThat(redis.endpoint().command("EXISTS", "lock:c1", "lock:c2", "lock:c3")).isEqualTo(0L);
	}

	@Test
	void executeAllAnswersWithTheBusyCallbackNamingTheBusyKeyWithoutRunningTheCallback() {
		try (LockHandle holder = this.second.template.tryAcquire("y2", TTL, Duration.ZERO).orElseThrow()) {
			AtomicBoolean ran = new AtomicBoolean();
			String answer = this.first.template
				.executeAll(MultiLockRequest.of(List.of("y1", "y2", "y3"), TTL, Duration.ofMillis(200)), (locks) -> {
					ran.set(true);
					return "ran";
				}, (busy) -> busy.getKey() + ": " + busy.getMessage());
			assertThat(answer).startsWith("y2: ").contains("y1, y2, y3");
			assertThat(ran).isFalse();
			assertThat(redis.endpoint().command("EXISTS", "lock:y1", "lock:y3")).isEqualTo(0L);
		}
	}

	@Test
	void callerWaitingForABusyKeyHoldsNoneOfItsOtherKeysMeanwhile() throws Exception {
		LockHandle holder = this.first.template.tryAcquire("p2", TTL, Duration.ZERO).orElseThrow();
		AtomicBoolean holderReleased = new AtomicBoolean();
		CompletableFuture<Boolean> waiting = inThread(() -> this.patient.template
			.executeAll(MultiLockRequest.of(List.of("p1", "p2"), TTL, Duration.ofSeconds(30)), (locks) -> {
				assertThat(locks.isHeld()).isTrue();
				return holderReleased.get();
			}));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.patient.waiter.isWaitedFor("lock:p2"));
		// While it waits for p2, p1 (which it took first) is free for anyone.
		try (LockHandle other = this.second.template.tryAcquire("p1", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(waiting).isNotDone();
		}
		holderReleased.set(true);
		holder.close();
		assertThat(waiting.get(10, TimeUnit.SECONDS)).as("ran after the holder released").isTrue();
	}

	@Test
	void waiterOfAnotherApplicationIsWokenByTheReleaseOfAllKeys() throws Exception {
		MultiLockHandle holder = this.first.template
			.tryAcquireAll(MultiLockRequest.of(List.of("x1", "x2"), TTL, Duration.ZERO))
			.orElseThrow();
		AtomicBoolean holderReleased = new AtomicBoolean();
		CompletableFuture<Boolean> waiting = inThread(() -> this.patient.template
			.executeAll(MultiLockRequest.of(List.of("x2", "x1"), TTL, LONG_BACKOFF), (locks) -> holderReleased.get()));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.patient.waiter.isWaitedFor("lock:x1"));
		holderReleased.set(true);
		holder.close();
		// Its backoff and the holder's lease are a minute: only the release wakes it.
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void releaseOfTheBusyKeyWhileTheCallerGivesBackTheKeysItTookWakesTheCaller() throws Exception {
		AtomicReference<Runnable> beforeGiveBack = new AtomicReference<>();
		LockWaiter waiter = new LockWaiter(LONG_BACKOFF, LONG_BACKOFF);
		// Runs the hook when the caller gives back g1, after it found g2 busy.
		try (TemplateApplication racing = TemplateApplication.start(redis.endpoint(), waiter,
				(connectionFactory) -> new RedisLockClient(connectionFactory) {

					@Override
					public boolean release(String key, String ownerToken) {
						Runnable hook = key.equals("lock:g1") ? beforeGiveBack.getAndSet(null) : null;
						if (hook != null) {
							hook.run();
						}
						return super.release(key, ownerToken);
					}

				})) {
			LockHandle holder = this.first.template.tryAcquire("g2", LONG_BACKOFF, Duration.ZERO).orElseThrow();
			beforeGiveBack.set(() -> {
				// g2 is released, and its release message handled by the caller's
				// application, before the caller goes to wait for g2. The probe stands in
				// for nobody: closed, it hands the wake-up on to the next waiter of g2.
				CountDownLatch heard = new CountDownLatch(1);
				try (LockWaiter.Waiter probe = waiter.registerNonBlocking("lock:g2", "lock:g2")) {
					probe.onNextWakeUp(heard::countDown);
					holder.close();
					assertThat(heard.await(5, TimeUnit.SECONDS)).as("release message heard").isTrue();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			});
			CompletableFuture<Boolean> waiting = inThread(() -> racing.template
				.executeAll(MultiLockRequest.of(List.of("g1", "g2"), TTL, LONG_BACKOFF), MultiLockHandle::isHeld));
			// The holder's lease and the caller's backoff are a minute: a caller that
			// missed the release would sleep that long.
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
			assertThat(beforeGiveBack).as("released while giving back").hasNullValue();
		}
	}

	@Test
	void eachKeyHasItsOwnIncreasingFencingTokenMatchingItsLock() {
		MultiLockHandle earlier = this.first.template
			.tryAcquireAll(MultiLockRequest.of(List.of("f2", "f1"), TTL, Duration.ZERO))
			.orElseThrow();
		assertThat(earlier.keys()).containsExactly("f1", "f2");
		assertThat(earlier.locks()).extracting(LockHandle::key).containsExactly("f1", "f2");
		for (LockHandle lock : earlier.locks()) {
			assertThat(earlier.fencingToken(lock.key())).isEqualTo(lock.fencingToken());
			assertThat(redis.endpoint().command("GET", fence(lock.key())))
				.isEqualTo(String.valueOf(lock.fencingToken()));
		}
		earlier.close();
		try (MultiLockHandle later = this.second.template
			.tryAcquireAll(MultiLockRequest.of(List.of("f1", "f2"), TTL, Duration.ZERO))
			.orElseThrow()) {
			assertThat(later.fencingToken("f1")).isGreaterThan(earlier.fencingToken("f1"));
			assertThat(later.fencingToken("f2")).isGreaterThan(earlier.fencingToken("f2"));
			assertThatIllegalArgumentException().isThrownBy(() -> later.fencingToken("f3")).withMessageContaining("f3");
		}
	}

	@Test
	void closeReleasesEveryKeyOnce() {
		MultiLockHandle locks = this.first.template
			.tryAcquireAll(MultiLockRequest.of(List.of("c1", "c2", "c3"), TTL, Duration.ZERO))
			.orElseThrow();
		assertThat(locks.isHeld()).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "lock:c1", "lock:c2", "lock:c3")).isEqualTo(3L);
		assertThat(this.first.template.getEngine().getHeldLocks()).extracting(HeldLock::key)
			.containsExactly("c1", "c2", "c3");
		locks.close();
		assertThat(redis.endpoint().command("EXISTS", "lock:c1", "lock:c2", "lock:c3")).isEqualTo(0L);
		assertThat(locks.isHeld()).isFalse();
		assertThat(this.first.template.getEngine().getHeldLocks()).isEmpty();
		assertThat(this.first.renewer.size()).isZero();
		// Closed once: a second close must not release a later owner's lock.
		try (MultiLockHandle later = this.second.template
			.tryAcquireAll(MultiLockRequest.of(List.of("c1", "c2", "c3"), TTL, Duration.ZERO))
			.orElseThrow()) {
			locks.close();
			assertThat(later.isHeld()).isTrue();
		}
	}

	@Test
	void whenLostCompletesWhenTheLockOfOneKeyIsRemoved() throws Exception {
		try (MultiLockHandle locks = this.first.template
			.tryAcquireAll(MultiLockRequest.of(List.of("w1", "w2"), LockRequest.MIN_RENEWED_TTL, Duration.ZERO))
			.orElseThrow()) {
			CompletableFuture<Void> lost = locks.whenLost().toCompletableFuture();
			// Renewed past its ttl first, so that the loss is the removal and not a lease
			// running out.
			await().during(LockRequest.MIN_RENEWED_TTL.plusMillis(400))
				.atMost(Duration.ofSeconds(3))
				.until(locks::isHeld);
			assertThat(lost).isNotDone();
			redis.endpoint().command("DEL", "lock:w2");
			lost.get(5, TimeUnit.SECONDS);
			assertThat(locks.isHeld()).isFalse();
			assertThat(locks.locks().get(0).isHeld()).isTrue();
		}
		assertThat(redis.endpoint().command("EXISTS", "lock:w1")).isEqualTo(0L);
	}

	@Test
	void executeAllInsideExecuteReentersTheOuterKeyTakesTheOthersAndLeavesTheOuterKeyHeld() {
		this.first.template.execute(LockRequest.of("r1", TTL, Duration.ZERO), (outer) -> {
			// Without re-entering, r1 would be busy (held by the outer call) and this
			// fail.
			this.first.template.executeAll(MultiLockRequest.of(List.of("r2", "r1"), TTL, Duration.ZERO), (locks) -> {
				assertThat(locks.locks().get(0)).isSameAs(outer);
				assertThat(locks.fencingToken("r1")).isEqualTo(outer.fencingToken());
				assertThat(LockContext.held()).extracting(LockHandle::key).containsExactly("r1", "r2");
				assertThat(redis.endpoint().command("EXISTS", "lock:r2")).isEqualTo(1L);
				return null;
			});
			assertThat(outer.isHeld()).isTrue();
			assertThat(redis.endpoint().command("EXISTS", "lock:r1")).isEqualTo(1L);
			assertThat(redis.endpoint().command("EXISTS", "lock:r2")).isEqualTo(0L);
			assertThat(LockContext.held()).containsExactly(outer);
			return null;
		});
		assertThat(redis.endpoint().command("EXISTS", "lock:r1")).isEqualTo(0L);
		assertThat(LockContext.held()).isEmpty();
	}

	@Test
	void interruptingAWaitingExecuteAllLeavesNoKeyHeld() throws Exception {
		try (LockHandle holder = this.first.template.tryAcquire("i2", TTL, Duration.ZERO).orElseThrow()) {
			AtomicBoolean ran = new AtomicBoolean();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			AtomicBoolean interruptKept = new AtomicBoolean();
			Thread thread = new Thread(() -> {
				try {
					this.patient.template.executeAll(
							MultiLockRequest.of(List.of("i1", "i2", "i3"), TTL, Duration.ofSeconds(30)), (locks) -> {
								ran.set(true);
								return null;
							});
				}
				catch (Throwable ex) {
					failure.set(ex);
					interruptKept.set(Thread.currentThread().isInterrupted());
				}
			});
			thread.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.patient.waiter.isWaitedFor("lock:i2"));
			thread.interrupt();
			thread.join(TimeUnit.SECONDS.toMillis(10));
			assertThat(thread.isAlive()).isFalse();
			assertThat(failure.get()).isInstanceOf(LockAcquisitionException.class).hasMessageContaining("Interrupted");
			assertThat(interruptKept).isTrue();
			assertThat(ran).isFalse();
			assertThat(redis.endpoint().command("EXISTS", "lock:i1", "lock:i3")).isEqualTo(0L);
			assertThat(this.patient.template.getEngine().getHeldLocks()).isEmpty();
			assertThat(this.patient.waiter.waiting()).isZero();
			assertThat(holder.isHeld()).isTrue();
		}
	}

	@Test
	void keysWhoseLeasesCannotBeRenewedAreAllGivenBack() {
		TemplateApplication stopping = TemplateApplication.start(redis.endpoint());
		try {
			// As on shutdown: the renewer is closed before the template's last callers.
			stopping.renewer.close();
			AtomicBoolean ran = new AtomicBoolean();
			assertThatIllegalStateException().isThrownBy(() -> stopping.template
				.executeAll(MultiLockRequest.of(List.of("q1", "q2", "q3"), TTL, Duration.ZERO), (locks) -> {
					ran.set(true);
					return null;
				}));
			assertThat(ran).isFalse();
			assertThat(redis.endpoint().command("EXISTS", "lock:q1", "lock:q2", "lock:q3")).isEqualTo(0L);
			assertThat(stopping.template.getEngine().getHeldLocks()).isEmpty();
			assertThat(LockContext.held()).isEmpty();
		}
		finally {
			stopping.close();
		}
	}

	@Test
	void lockContextShowsTheHandleOfEveryKeyInsideTheCallback() {
		this.first.template.executeAll(MultiLockRequest.of(List.of("h3", "h1", "h2"), TTL, Duration.ZERO), (locks) -> {
			assertThat(LockContext.held()).containsExactlyElementsOf(locks.locks());
			assertThat(LockContext.find("h2")).isSameAs(locks.locks().get(1));
			// A nested call on one of the keys re-enters it instead of finding it busy.
			this.first.template.execute(LockRequest.of("h2", TTL, Duration.ZERO),
					(nested) -> assertThat(nested).isSameAs(locks.locks().get(1)));
			return null;
		});
		assertThat(LockContext.held()).isEmpty();
	}

	@Test
	void readLocksOfSeveralKeysAreSharedWithOtherReadersAndExcludeWriters() {
		MultiLockRequest read = MultiLockRequest.of(List.of("s1", "s2"), TTL, Duration.ZERO).withMode(LockMode.READ);
		try (MultiLockHandle one = this.first.template.tryAcquireAll(read).orElseThrow();
				MultiLockHandle other = this.second.template.tryAcquireAll(read).orElseThrow()) {
			assertThat(one.isHeld()).isTrue();
			assertThat(other.isHeld()).isTrue();
			assertThat(this.first.template.tryAcquire("s2", TTL, Duration.ZERO)).isEmpty();
			assertThat(this.second.template
				.tryAcquireAll(MultiLockRequest.of(List.of("s1", "s2"), TTL, Duration.ZERO).withMode(LockMode.WRITE)))
				.isEmpty();
		}
		try (MultiLockHandle writer = this.second.template
			.tryAcquireAll(MultiLockRequest.of(List.of("s1", "s2"), TTL, Duration.ZERO))
			.orElseThrow()) {
			assertThat(this.first.template.tryAcquireAll(read)).isEmpty();
		}
	}

	private static String fence(String key) {
		return "{lock:" + key + "}\u001ffence\u001flock:" + key;
	}

	private static <T> CompletableFuture<T> inThread(Callable<T> task) {
		CompletableFuture<T> future = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				future.complete(task.call());
			}
			catch (Throwable ex) {
				future.completeExceptionally(ex);
			}
		});
		thread.start();
		return future;
	}

	/**
	 * Critical sections over several keys at once, which detect overlaps on each key
	 * explicitly: a section checks that it is alone on each of its keys, and increments
	 * each key's counter with a non-atomic read-modify-write that loses updates unless
	 * the sections of a key are exclusive.
	 */
	private static final class KeySections {

		private final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> overlaps = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> expected = new ConcurrentHashMap<>();

		void run(Collection<String> keys) {
			for (String key : keys) {
				if (of(this.inside, key).incrementAndGet() != 1) {
					of(this.overlaps, key).incrementAndGet();
				}
			}
			for (String key : keys) {
				AtomicInteger counter = of(this.counters, key);
				int value = counter.get();
				Thread.yield();
				counter.set(value + 1);
				of(this.expected, key).incrementAndGet();
			}
			for (String key : keys) {
				of(this.inside, key).decrementAndGet();
			}
		}

		int overlaps(String key) {
			return of(this.overlaps, key).get();
		}

		int count(String key) {
			return of(this.counters, key).get();
		}

		int expected(String key) {
			return of(this.expected, key).get();
		}

		private static AtomicInteger of(Map<String, AtomicInteger> values, String key) {
			return values.computeIfAbsent(key, (k) -> new AtomicInteger());
		}

	}

}
