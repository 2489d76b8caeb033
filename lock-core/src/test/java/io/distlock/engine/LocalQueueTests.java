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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LocalQueue}: who contends, who waits, and what a ticket gets.
 */
class LocalQueueTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final long FOREVER = TimeUnit.MINUTES.toNanos(1);

	private final LocalQueue queue = new LocalQueue("lock:k");

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void givenAnEmptyQueueWhenAThreadEntersThenItContendsAtOnce() throws Exception {
		QueueTicket first = this.queue.enter("a", TTL, true);
		assertThat(this.queue.await(first, deadline())).isEqualTo(LocalQueue.Turn.CONTEND);
		assertThat(this.queue.waiting()).isZero();
	}

	@Test
	void givenAHolderWhenItReleasesThenTheLockIsHandedToTheWaitersInArrivalOrder() throws Exception {
		QueueTicket holder = holding("a");
		QueueTicket second = this.queue.enter("b", TTL, true);
		QueueTicket third = this.queue.enter("c", TTL, true);
		assertThat(this.queue.waiting()).isEqualTo(2);
		assertThat(this.queue.beginRelease(holder)).isSameAs(second);
		this.queue.handedOver(holder, second, 42, 7);
		assertThat(this.queue.await(second, deadline())).isEqualTo(LocalQueue.Turn.HANDED_OVER);
		assertThat(second.fencingToken()).isEqualTo(42);
		assertThat(second.abandoned()).isFalse();
		assertThat(this.queue.beginRelease(second)).isSameAs(third);
	}

	@Test
	void givenAWaiterWhenItsDeadlinePassesThenItLeavesTheQueue() throws Exception {
		holding("a");
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		assertThat(this.queue.await(waiter, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)))
			.isEqualTo(LocalQueue.Turn.TIMED_OUT);
		assertThat(this.queue.waiting()).isZero();
	}

	@Test
	void givenAWaiterWhenInterruptedThenItLeavesTheQueue() throws Exception {
		holding("a");
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		AtomicReference<Thread> thread = new AtomicReference<>();
		CompletableFuture<LocalQueue.Turn> turn = awaitTurn(waiter, thread);
		await().atMost(Duration.ofSeconds(5)).until(() -> thread.get() != null);
		thread.get().interrupt();
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> turn.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(InterruptedException.class);
		assertThat(this.queue.waiting()).isZero();
	}

	@Test
	void givenAHandoverInFlightWhenTheWaiterIsInterruptedThenItGetsTheLockAsAbandoned() throws Exception {
		QueueTicket holder = holding("a");
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		AtomicReference<Thread> thread = new AtomicReference<>();
		CompletableFuture<LocalQueue.Turn> turn = awaitTurn(waiter, thread);
		assertThat(this.queue.beginRelease(holder)).isSameAs(waiter);
		await().atMost(Duration.ofSeconds(5)).until(() -> thread.get() != null);
		thread.get().interrupt();
		Thread.sleep(50);
		assertThat(turn).isNotDone();
		this.queue.handedOver(holder, waiter, 42, 7);
		assertThat(turn.get(5, TimeUnit.SECONDS)).isEqualTo(LocalQueue.Turn.HANDED_OVER);
		assertThat(waiter.abandoned()).isTrue();
	}

	@Test
	void givenADeclinedHandoverThenTheWaiterContendsInTheStore() throws Exception {
		QueueTicket holder = holding("a");
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		assertThat(this.queue.beginRelease(holder)).isSameAs(waiter);
		this.queue.notHandedOver(waiter);
		this.queue.released(holder, true);
		assertThat(this.queue.await(waiter, deadline())).isEqualTo(LocalQueue.Turn.CONTEND);
	}

	@Test
	void givenAHandoverThatDidNotHappenWhenTheHolderHasNotReleasedYetThenTheWaiterTimesOutAtItsDeadline()
			throws Exception {
		QueueTicket holder = holding("a");
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		assertThat(this.queue.beginRelease(holder)).isSameAs(waiter);
		this.queue.notHandedOver(waiter);
		assertThat(this.queue.await(waiter, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)))
			.isEqualTo(LocalQueue.Turn.TIMED_OUT);
		this.queue.released(holder, false);
		assertThat(this.queue.waiting()).isZero();
	}

	@Test
	void givenAHolderThatLostItsLockThenTheNextWaiterContendsInTheStore() throws Exception {
		QueueTicket holder = holding("a");
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		this.queue.lost(holder);
		assertThat(this.queue.await(waiter, deadline())).isEqualTo(LocalQueue.Turn.CONTEND);
		// Its release later lets nobody else in: the waiter contends already.
		QueueTicket third = this.queue.enter("c", TTL, true);
		assertThat(this.queue.beginRelease(holder)).isNull();
		this.queue.released(holder, false);
		assertThat(this.queue.waiting()).isEqualTo(1);
		assertThat(this.queue.await(third, System.nanoTime())).isEqualTo(LocalQueue.Turn.TIMED_OUT);
	}

	@Test
	void givenAStreakOfHandoversLongerThanItsBoundThenTheNextReleaseLetsTheLockGo() throws Exception {
		QueueTicket holder = holding("a");
		QueueTicket second = this.queue.enter("b", TTL, true);
		assertThat(this.queue.beginRelease(holder)).isSameAs(second);
		this.queue.handedOver(holder, second, 2, 0);
		this.queue.enter("c", TTL, true);
		Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LocalQueue.MAX_STREAK_NANOS) + 50);
		assertThat(this.queue.beginRelease(second)).isNull();
	}

	@Test
	void givenAHolderNotRenewedWhenItsLeaseRunsOutThenTheFirstWaiterContendsInTheStore() throws Exception {
		QueueTicket holder = holding("a", Duration.ofMillis(200), false);
		QueueTicket second = this.queue.enter("b", TTL, false);
		QueueTicket third = this.queue.enter("c", TTL, false);
		long start = System.nanoTime();
		assertThat(this.queue.await(second, deadline())).isEqualTo(LocalQueue.Turn.CONTEND);
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
		// The late release of the first holder hands nothing over and lets nobody in.
		assertThat(this.queue.beginRelease(holder)).isNull();
		this.queue.released(holder, false);
		assertThat(this.queue.waiting()).isEqualTo(1);
		assertThat(this.queue.await(third, System.nanoTime())).isEqualTo(LocalQueue.Turn.TIMED_OUT);
	}

	@Test
	void givenAWaiterAlreadyAsleepWhenTheLockIsTakenWithALeaseThatEndsFirstThenItWakesAtTheLeaseEnd() throws Exception {
		QueueTicket contender = this.queue.enter("a", Duration.ofMillis(200), false);
		assertThat(this.queue.await(contender, deadline())).isEqualTo(LocalQueue.Turn.CONTEND);
		QueueTicket waiter = this.queue.enter("b", TTL, false);
		AtomicReference<Thread> thread = new AtomicReference<>();
		CompletableFuture<LocalQueue.Turn> turn = awaitTurn(waiter, thread);
		// Asleep until its deadline: nobody held the lock when it went to sleep.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> thread.get() != null && thread.get().getState() == Thread.State.TIMED_WAITING);
		this.queue.contended(contender, true, System.nanoTime());
		assertThat(turn.get(5, TimeUnit.SECONDS)).isEqualTo(LocalQueue.Turn.CONTEND);
	}

	@Test
	void givenAHolderThatIsRenewedThenItsWaitersDoNotTakeTheLockWhenItsTtlPasses() throws Exception {
		holding("a", Duration.ofMillis(50), true);
		QueueTicket waiter = this.queue.enter("b", TTL, true);
		assertThat(this.queue.await(waiter, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300)))
			.isEqualTo(LocalQueue.Turn.TIMED_OUT);
	}

	private QueueTicket holding(String owner) throws InterruptedException {
		return holding(owner, TTL, true);
	}

	private QueueTicket holding(String owner, Duration ttl, boolean renewed) throws InterruptedException {
		QueueTicket ticket = this.queue.enter(owner, ttl, renewed);
		assertThat(this.queue.await(ticket, deadline())).isEqualTo(LocalQueue.Turn.CONTEND);
		this.queue.contended(ticket, true, System.nanoTime());
		return ticket;
	}

	private CompletableFuture<LocalQueue.Turn> awaitTurn(QueueTicket ticket, AtomicReference<Thread> thread) {
		CompletableFuture<LocalQueue.Turn> turn = new CompletableFuture<>();
		this.threads.execute(() -> {
			thread.set(Thread.currentThread());
			try {
				turn.complete(this.queue.await(ticket, deadline()));
			}
			catch (Throwable ex) {
				turn.completeExceptionally(ex);
			}
		});
		return turn;
	}

	private static long deadline() {
		return System.nanoTime() + FOREVER;
	}

}
