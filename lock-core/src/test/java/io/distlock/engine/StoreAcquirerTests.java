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

package io.distlock.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.distlock.LockBackendException;

import org.junit.jupiter.api.Test;

import io.distlock.store.AcquireResult;
import io.distlock.store.FairLockClient;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link StoreAcquirer}: the waiting logic, on a scripted {@link LockClient}.
 */
class LockAcquirerTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final AcquireResult BUSY = new AcquireResult.Busy(null);

	private static final AcquireResult ACQUIRED = new AcquireResult.Acquired(1);

	// Long enough that only a deadline, a holder's lease or a signal ends a wait.
	private final LockWaiter waiter = new LockWaiter(Duration.ofMinutes(1), Duration.ofMinutes(1));

	private final ScriptedClient client = new ScriptedClient();

	// Gives back on the calling thread, so that the calls are in order when acquire
	// returns.
	private final StoreAcquirer acquirer = new StoreAcquirer(this.client, this.waiter, Runnable::run);

	@Test
	void zeroWaitTimeTriesOnceWithoutRegisteringOrQueueing() throws Exception {
		this.client.answer(() -> BUSY);
		assertThat(this.acquirer.acquire("k", "owner", TTL, Duration.ZERO, true).result()).isEqualTo(BUSY);
		assertThat(this.client.calls).containsExactly("fair k owner 0");
		assertThat(this.waiter.waiting()).isZero();
	}

	@Test
	void writerThatLeftNoMarkerGivesUpWithoutAnotherCall() throws Exception {
		this.client.answer(() -> BUSY);
		assertThat(this.acquirer.acquire("k", "owner", TTL, Duration.ZERO, false).result()).isEqualTo(BUSY);
		assertThat(this.client.calls).containsExactly("k owner");
	}

	@Test
	void writerThatKeptReadersOutWithdrawsWhenItGivesUp() throws Exception {
		AcquireResult keepingReadersOut = new AcquireResult.Busy(Duration.ofMillis(5), true);
		this.client.answer(() -> keepingReadersOut);
		assertThat(this.acquirer.acquire("k", "owner", TTL, Duration.ZERO, false).result())
			.isEqualTo(keepingReadersOut);
		assertThat(this.client.calls).containsExactly("k owner", "release k owner");
	}

	@Test
	void busyLockIsTriedAgainWhenTheHoldersLeaseRunsOut() throws Exception {
		AtomicInteger attempts = new AtomicInteger();
		this.client
			.answer(() -> (attempts.getAndIncrement() == 0) ? new AcquireResult.Busy(Duration.ofMillis(20)) : ACQUIRED);
		long start = System.nanoTime();
		assertThat(this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), false).result()).isEqualTo(ACQUIRED);
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
		assertThat(this.waiter.waiting()).isZero();
	}

	@Test
	void lockThatStaysBusyIsGivenUpAtTheWaitTimeAfterALastAttempt() throws Exception {
		this.client.answer(() -> BUSY);
		long start = System.nanoTime();
		assertThat(this.acquirer.acquire("k", "owner", TTL, Duration.ofMillis(200), false).result()).isEqualTo(BUSY);
		long waited = System.nanoTime() - start;
		// Not before the wait time; the upper bound only shows that it gave up instead of
		// waiting on, with room for a loaded machine's scheduling delays (a 100ms bound
		// failed at a load average of 15).
		assertThat(waited).isBetween(TimeUnit.MILLISECONDS.toNanos(200), TimeUnit.MILLISECONDS.toNanos(200 + 2000));
		assertThat(this.client.calls).containsExactly("k owner", "k owner");
		assertThat(this.waiter.waiting()).isZero();
	}

	@Test
	void notConfirmedAttemptIsTriedAgainWithinTheWaitTime() throws Exception {
		this.client
			.answer(() -> (this.client.calls.size() == 1) ? new AcquireResult.NotConfirmed("no replica") : ACQUIRED);
		StoreAcquirer acquirer = new StoreAcquirer(this.client, new LockWaiter(Duration.ofMillis(20)), Runnable::run);
		assertThat(acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), false).result()).isEqualTo(ACQUIRED);
		assertThat(this.client.calls).containsExactly("k owner", "k owner");
	}

	@Test
	void attemptNotConfirmedUntilTheWaitTimeFailsAsABackendFailureNamingWhy() {
		this.client.answer(() -> new AcquireResult.NotConfirmed("acknowledged by 0 of 1 replica(s) within 100ms"));
		StoreAcquirer acquirer = new StoreAcquirer(this.client, new LockWaiter(Duration.ofMillis(20)), Runnable::run);
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> acquirer.acquire("k", "owner", TTL, Duration.ofMillis(100), false))
			.withMessage("Lock 'k' could not be taken: acknowledged by 0 of 1 replica(s) within 100ms");
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> acquirer.acquire("k", "owner", TTL, Duration.ZERO, false));
	}

	@Test
	void waitTimeBeyondAnyDeadlineIsWaitedForLikeAnyOther() throws Exception {
		this.client
			.answer(() -> this.client.calls.size() == 1 ? new AcquireResult.Busy(Duration.ofMillis(10)) : ACQUIRED);
		assertThat(this.acquirer.acquire("k", "owner", TTL, Duration.ofSeconds(Long.MAX_VALUE), false).result())
			.isEqualTo(ACQUIRED);
	}

	@Test
	void fairWaiterQueuesWithThePlaceTimeAndLeavesWhenItGivesUp() throws Exception {
		this.client.answer(() -> BUSY);
		long place = this.acquirer.getQueueTimeout().toMillis();
		assertThat(place).isEqualTo(Duration.ofMinutes(1).plusSeconds(5).toMillis());
		this.acquirer.acquire("k", "owner", TTL, Duration.ofMillis(50), true).result();
		assertThat(this.client.calls).containsExactly("fair k owner " + place, "fair k owner " + place,
				"leave k owner");
	}

	@Test
	void fairWaiterThatGetsTheLockDoesNotLeaveTheQueue() throws Exception {
		this.client.answer(() -> ACQUIRED);
		this.acquirer.acquire("k", "owner", TTL, Duration.ofSeconds(1), true).result();
		assertThat(this.client.calls).hasSize(1);
	}

	@Test
	void fairWaiterIsWokenByItsOwnerTokenNotByTheKey() throws Exception {
		AtomicInteger attempts = new AtomicInteger();
		this.client.answer(() -> {
			if (attempts.incrementAndGet() == 1) {
				this.waiter.signal("k");
				return BUSY;
			}
			return ACQUIRED;
		});
		CompletableFuture<AcquireResult> result = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				result.complete(this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), true).result());
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		});
		thread.start();
		// Parked: the signal for the key left no wake-up for a fair waiter.
		await().atMost(Duration.ofSeconds(5)).until(() -> LockSupport.getBlocker(thread) instanceof LockWaiter.Waiter);
		this.waiter.signal("owner");
		assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo(ACQUIRED);
		assertThat(attempts).hasValue(2);
	}

	@Test
	void interruptedFairWaiterLeavesTheQueueWithTheFlagClearedForTheCall() {
		this.client.answer(() -> {
			Thread.currentThread().interrupt();
			return BUSY;
		});
		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), true).result());
		assertThat(this.client.calls).last().isEqualTo("leave k owner");
		assertThat(this.client.interruptedDuringLeave).isFalse();
		assertThat(this.waiter.waiting()).isZero();
	}

	@Test
	void backendFailureCausedByAnInterruptIsReportedAsTheInterrupt() {
		IllegalStateException failure = new IllegalStateException("Redis command interrupted");
		this.client.answer(() -> {
			Thread.currentThread().interrupt();
			throw failure;
		});
		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), false).result())
			.withCause(failure);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void backendFailureWithoutInterruptIsThrownAsItIs() {
		this.client.answer(() -> {
			throw new IllegalStateException("Redis is down");
		});
		assertThatIllegalStateException()
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), true).result())
			.withMessage("Redis is down");
		assertThat(this.client.calls).last().isEqualTo("leave k owner");
	}

	@Test
	void failedAttemptGivesBackWhatItMayHaveTakenBeforeTheFailureIsThrown() {
		this.client.answer(() -> {
			throw new IllegalStateException("Redis command timed out");
		});
		assertThatIllegalStateException()
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), false))
			.withMessage("Redis command timed out")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
		assertThat(this.client.calls).containsExactly("k owner", "release k owner");
	}

	@Test
	void failedFairAttemptGivesBackTheLockAndLeavesTheQueue() {
		this.client.answer(() -> {
			throw new IllegalStateException("Redis command timed out");
		});
		assertThatIllegalStateException()
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), true));
		long place = this.acquirer.getQueueTimeout().toMillis();
		assertThat(this.client.calls).containsExactly("fair k owner " + place, "release k owner", "leave k owner");
	}

	@Test
	void interruptedAttemptGivesBackWhatItMayHaveTakenWithTheFlagClearedForTheCall() {
		IllegalStateException failure = new IllegalStateException("Redis command interrupted");
		this.client.answer(() -> {
			Thread.currentThread().interrupt();
			throw failure;
		});
		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ofMinutes(1), false))
			.withCause(failure);
		assertThat(this.client.calls).containsExactly("k owner", "release k owner");
		assertThat(this.client.interruptedDuringRelease).isFalse();
	}

	@Test
	void failureToGiveBackNeitherHidesNorChangesTheAttemptsFailure() {
		IllegalStateException releaseFailure = new IllegalStateException("Redis is still slow");
		this.client.answer(() -> {
			throw new IllegalStateException("Redis command timed out");
		});
		this.client.answerRelease(() -> {
			throw releaseFailure;
		});
		assertThatIllegalStateException()
			.isThrownBy(() -> this.acquirer.acquire("k", "owner", TTL, Duration.ZERO, false))
			.withMessage("Redis command timed out")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
		assertThat(this.client.calls).containsExactly("k owner", "release k owner");
	}

	/**
	 * A {@link LockClient} whose acquire attempts answer as scripted, recording calls.
	 */
	@Test
	void fairAcquisitionOnAStoreWithoutFairModeIsRefusedNamingTheStore() {
		StoreAcquirer plain = new StoreAcquirer(new PlainClient(), this.waiter);
		assertThat(plain.supportsFair()).isFalse();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> plain.acquire("k", "owner", TTL, Duration.ofSeconds(1), true))
			.withMessageContaining("'k'")
			.withMessageContaining(PlainClient.class.getName());
	}

	/**
	 * A store with only the calls every store must answer.
	 */
	static final class PlainClient implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			return ACQUIRED;
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return true;
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			return true;
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return true;
		}

	}

	static final class ScriptedClient implements FairLockClient {

		final List<String> calls = new CopyOnWriteArrayList<>();

		volatile boolean interruptedDuringLeave;

		volatile boolean interruptedDuringRelease;

		private Supplier<AcquireResult> answer = () -> BUSY;

		private Supplier<Boolean> releaseAnswer = () -> false;

		void answer(Supplier<AcquireResult> answer) {
			this.answer = answer;
		}

		void answerRelease(Supplier<Boolean> releaseAnswer) {
			this.releaseAnswer = releaseAnswer;
		}

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			this.calls.add(key + " " + ownerToken);
			return this.answer.get();
		}

		@Override
		public AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
			this.calls.add("fair " + key + " " + ownerToken + " " + queueTimeout.toMillis());
			return this.answer.get();
		}

		@Override
		public boolean leaveQueue(String key, String ownerToken) {
			this.interruptedDuringLeave = Thread.currentThread().isInterrupted();
			this.calls.add("leave " + key + " " + ownerToken);
			return true;
		}

		@Override
		public boolean release(String key, String ownerToken) {
			this.interruptedDuringRelease = Thread.currentThread().isInterrupted();
			this.calls.add("release " + key + " " + ownerToken);
			return this.releaseAnswer.get();
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

	}

}
