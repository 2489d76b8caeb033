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

package io.distlock.waiting;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LockWaiter}.
 */
class LockWaiterTests {

	private static final long LONG = TimeUnit.SECONDS.toNanos(30);

	// Backoff so long that only a signal, a lease or a deadline ends a wait in a test.
	private final LockWaiter waiter = new LockWaiter(Duration.ofSeconds(30), Duration.ofSeconds(30));

	@Test
	void signalWakesAParkedWaiterLongBeforeItsBackoff() throws Exception {
		CompletableFuture<Long> parkedFor = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
				long start = System.nanoTime();
				waiting.await(-1, System.nanoTime() + LONG);
				parkedFor.complete(System.nanoTime() - start);
			}
			catch (InterruptedException ex) {
				parkedFor.completeExceptionally(ex);
			}
		});
		thread.start();
		awaitParked(thread);
		this.waiter.signal("k");
		assertThat(parkedFor.get(5, TimeUnit.SECONDS)).isLessThan(TimeUnit.SECONDS.toNanos(5));
	}

	@Test
	void signalCallsTheNonBlockingWaitersCallbackBack() {
		AtomicInteger wakeUps = new AtomicInteger();
		try (LockWaiter.Waiter waiting = this.waiter.registerNonBlocking("lock:k", "lock:k")) {
			waiting.onNextWakeUp(wakeUps::incrementAndGet);
			this.waiter.signal("lock:k");
			// Once: the callback is used up by its wake-up.
			this.waiter.signal("lock:k");
			assertThat(wakeUps).hasValue(1);
		}
	}

	@Test
	void wakeUpBeforeTheCallbackIsSetRunsItAtOnceUntilConsumed() {
		AtomicInteger wakeUps = new AtomicInteger();
		try (LockWaiter.Waiter waiting = this.waiter.registerNonBlocking("lock:k", "lock:k")) {
			// A release while the attempt was in flight is not lost.
			this.waiter.signal("lock:k");
			waiting.onNextWakeUp(wakeUps::incrementAndGet);
			assertThat(wakeUps).hasValue(1);
			waiting.consumeWakeUp();
			waiting.onNextWakeUp(wakeUps::incrementAndGet);
			assertThat(wakeUps).hasValue(1);
		}
	}

	@Test
	void nonBlockingWaiterCountsAsWaitingFromItsFirstPause() {
		List<String> changes = new CopyOnWriteArrayList<>();
		this.waiter.setInterest(changes::add);
		LockWaiter.Waiter waiting = this.waiter.registerNonBlocking("lock:k", "lock:k");
		assertThat(this.waiter.isWaitedFor("lock:k")).isFalse();
		long pause = waiting.nextPauseNanos(TimeUnit.MILLISECONDS.toNanos(3));
		assertThat(pause).isBetween(0L, TimeUnit.MILLISECONDS.toNanos(3));
		assertThat(this.waiter.isWaitedFor("lock:k")).isTrue();
		waiting.close();
		assertThat(this.waiter.isWaitedFor("lock:k")).isFalse();
		assertThat(changes).containsExactly("lock:k", "lock:k");
	}

	@Test
	void callbacksAreOnlyForNonBlockingWaiters() {
		try (LockWaiter.Waiter parking = this.waiter.register("lock:k")) {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> parking.onNextWakeUp(() -> {
			}));
		}
	}

	@Test
	void interestIsToldWhenAResourceGetsItsFirstParkedWaiterAndLosesItsLast() throws Exception {
		List<String> changes = new CopyOnWriteArrayList<>();
		this.waiter.setInterest((resource) -> changes.add(resource + " " + this.waiter.isWaitedFor(resource)));
		LockWaiter.Waiter first = this.waiter.register("lock:k");
		LockWaiter.Waiter fair = this.waiter.register("owner-token", "lock:k");
		assertThat(changes).as("registered, not yet parked").isEmpty();
		// Woken beforehand, so that await returns at once.
		this.waiter.signal("lock:k");
		first.await(-1, System.nanoTime() + LONG);
		this.waiter.signal("owner-token");
		fair.await(-1, System.nanoTime() + LONG);
		first.close();
		assertThat(changes).containsExactly("lock:k true");
		fair.close();
		assertThat(changes).containsExactly("lock:k true", "lock:k false");
		assertThat(this.waiter.isWaitedFor("lock:k")).isFalse();
	}

	@Test
	void waiterThatNeverParkedTellsTheInterestNothing() {
		List<String> changes = new CopyOnWriteArrayList<>();
		this.waiter.setInterest(changes::add);
		this.waiter.register("lock:k").close();
		assertThat(changes).isEmpty();
	}

	private void parkOnce(LockWaiter.Waiter waiting, String key) throws InterruptedException {
		this.waiter.signal(key);
		waiting.await(-1, System.nanoTime() + LONG);
	}

	@Test
	void signalResourceWakesEveryWaiterOfTheResourceFairOnesIncluded() throws Exception {
		try (LockWaiter.Waiter plain = this.waiter.register("lock:k");
				LockWaiter.Waiter fair = this.waiter.register("owner-token", "lock:k");
				LockWaiter.Waiter other = this.waiter.register("lock:other")) {
			parkOnce(plain, "lock:k");
			parkOnce(fair, "owner-token");
			parkOnce(other, "lock:other");
			this.waiter.signalResource("lock:k");
			assertThat(plain.wake()).isFalse();
			assertThat(fair.wake()).isFalse();
			assertThat(other.wake()).isTrue();
		}
	}

	@Test
	void signalBeforeAwaitIsNotLost() throws Exception {
		try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
			this.waiter.signal("k");
			long start = System.nanoTime();
			waiting.await(-1, System.nanoTime() + LONG);
			assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
		}
	}

	@Test
	void signalWakesOnlyOneWaiterOfTheKey() {
		try (LockWaiter.Waiter first = this.waiter.register("k");
				LockWaiter.Waiter second = this.waiter.register("k")) {
			this.waiter.signal("k");
			assertThat(first.wake()).isFalse();
			assertThat(second.wake()).isTrue();
		}
	}

	@Test
	void signalOfAnotherKeyWakesNobody() {
		try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
			this.waiter.signal("other");
			assertThat(waiting.wake()).isTrue();
		}
	}

	@Test
	void unusedWakeUpPassesToTheNextWaiterOnClose() {
		LockWaiter.Waiter first = this.waiter.register("k");
		try (LockWaiter.Waiter second = this.waiter.register("k")) {
			this.waiter.signal("k");
			first.close();
			assertThat(second.wake()).isFalse();
		}
	}

	@Test
	void awaitReturnsWhenTheHoldersLeaseRunsOut() throws Exception {
		try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
			long start = System.nanoTime();
			waiting.await(TimeUnit.MILLISECONDS.toNanos(20), System.nanoTime() + LONG);
			assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
		}
	}

	@Test
	void awaitNeverParksPastTheDeadline() throws Exception {
		try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
			// Sooner than the first backoff (5 to 10ms) and the holder's lease.
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
			waiting.await(LONG, deadline);
			assertThat(System.nanoTime()).isGreaterThanOrEqualTo(deadline);
			assertThat(System.nanoTime() - deadline).isLessThan(TimeUnit.SECONDS.toNanos(5));
		}
	}

	@Test
	void interruptStopsTheWaitAndTheRegistrationIsRemoved() throws Exception {
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch registered = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
				registered.countDown();
				waiting.await(LONG, System.nanoTime() + LONG);
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
			}
		});
		thread.start();
		registered.await();
		thread.interrupt();
		thread.join(TimeUnit.SECONDS.toMillis(5));
		assertThat(thread.isAlive()).isFalse();
		assertThat(interrupted).isTrue();
		assertThat(this.waiter.waiting()).isZero();
	}

	@Test
	void interruptedThreadDoesNotPark() {
		try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
			Thread.currentThread().interrupt();
			assertThatExceptionOfType(InterruptedException.class)
				.isThrownBy(() -> waiting.await(LONG, System.nanoTime() + LONG));
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void closedRegistrationsLeaveNothingBehind() {
		this.waiter.register("a").close();
		this.waiter.register("b").close();
		assertThat(this.waiter.waiting()).isZero();
	}

	@Test
	void pendingWakeUpDoesNotHideAnInterrupt() {
		try (LockWaiter.Waiter waiting = this.waiter.register("k")) {
			this.waiter.signal("k");
			Thread.currentThread().interrupt();
			assertThatExceptionOfType(InterruptedException.class)
				.isThrownBy(() -> waiting.await(LONG, System.nanoTime() + LONG));
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void firstBackoffIsBetweenHalfAndAllOfTheInitialBackoff() throws Exception {
		LockWaiter waiter = new LockWaiter(Duration.ofMillis(200), Duration.ofSeconds(30));
		try (LockWaiter.Waiter waiting = waiter.register("k")) {
			long start = System.nanoTime();
			waiting.await(-1, System.nanoTime() + LONG);
			assertThat(System.nanoTime() - start).isBetween(TimeUnit.MILLISECONDS.toNanos(100),
					TimeUnit.MILLISECONDS.toNanos(200 + 500));
		}
	}

	@Test
	void backoffNeverExceedsTheMaximum() throws Exception {
		LockWaiter waiter = new LockWaiter(Duration.ofMillis(20), Duration.ofMillis(40));
		try (LockWaiter.Waiter waiting = waiter.register("k")) {
			for (int i = 0; i < 5; i++) {
				long start = System.nanoTime();
				waiting.await(-1, System.nanoTime() + LONG);
				assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(40 + 500));
			}
		}
		assertThat(waiter.getMaxBackoff()).isEqualTo(Duration.ofMillis(40));
	}

	@Test
	void maximumBackoffIsAtLeastTheInitialBackoff() {
		assertThat(new LockWaiter(Duration.ofMillis(100), Duration.ZERO).getMaxBackoff())
			.isEqualTo(Duration.ofMillis(100));
		assertThat(new LockWaiter(Duration.ZERO).getMaxBackoff()).isEqualTo(Duration.ofMillis(10));
	}

	@Test
	void invalidBackoffsAreRejectedByName() {
		assertThatIllegalArgumentException().isThrownBy(() -> new LockWaiter(Duration.ZERO, Duration.ofSeconds(1)))
			.withMessage("'initialBackoff' must be positive");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockWaiter(Duration.ofMillis(1), Duration.ofSeconds(-1)))
			.withMessage("'maxBackoff' must not be negative");
	}

	@Test
	void signalAllWakesEveryWaiterOfEveryKey() {
		try (LockWaiter.Waiter a = this.waiter.register("a");
				LockWaiter.Waiter b = this.waiter.register("a");
				LockWaiter.Waiter c = this.waiter.register("c")) {
			this.waiter.signalAll();
			assertThat(a.wake()).isFalse();
			assertThat(b.wake()).isFalse();
			assertThat(c.wake()).isFalse();
		}
	}

	private static void awaitParked(Thread thread) {
		await().atMost(Duration.ofSeconds(5)).until(() -> LockSupport.getBlocker(thread) instanceof LockWaiter.Waiter);
	}

}
