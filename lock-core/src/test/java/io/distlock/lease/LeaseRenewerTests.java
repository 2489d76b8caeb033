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

package io.distlock.lease;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.store.Renewal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseRenewer}: scheduling, batching and the decisions to stop, on a
 * {@link ManualTaskScheduler} whose clock only moves when a test advances it, and a
 * {@link LockClient} that counts renewals instead of calling a store.
 */
class LeaseRenewerTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	// Renewed every 100ms; batched up to 12.5ms early; retried every 25ms.
	private static final Duration TTL = Duration.ofMillis(300);

	private final ManualTaskScheduler scheduler = new ManualTaskScheduler(T0);

	private final CountingClient client = new CountingClient(this.scheduler.getClock());

	// Renewal calls and listeners run at once on the ticking thread, unless a test says
	// otherwise.
	private final LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1), this.scheduler,
			Runnable::run, Runnable::run);

	private final RenewalThreads renewalThreads = new RenewalThreads();

	private final AtomicInteger lost = new AtomicInteger();

	private final List<LeaseRenewer> closeLater = new ArrayList<>();

	@AfterEach
	void closeRenewer() {
		this.renewer.close();
		this.closeLater.forEach(LeaseRenewer::close);
		this.client.unhang.countDown();
		this.renewalThreads.pool.shutdownNow();
	}

	@Test
	void leaseIsRenewedEveryThirdOfItsTtl() {
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(350));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(200), at(300));
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void firstRenewalIsDueAThirdOfTheTtlAfterTheAcquisitionWasSent() {
		// Sent one long round trip ago: the lease has run in the store since then.
		Instant sentAt = T0.minusMillis(90);
		this.renewer.register("k", "owner", Duration.ofSeconds(3), sentAt, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.renewalsOf("k")).containsExactly(sentAt.plusSeconds(1));
	}

	@Test
	void leasesDueTogetherAreRenewedInOneBatch() {
		for (int i = 0; i < 500; i++) {
			this.renewer.register("k" + i, "owner", TTL, this.lost::incrementAndGet);
		}
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.client.batches).containsExactly(500);
	}

	@Test
	void leaseDueWithinAnEighthOfItsIntervalJoinsTheEarlierBatch() {
		this.renewer.register("first", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(12));
		this.renewer.register("within-slack", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(1));
		this.renewer.register("beyond-slack", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(150));
		assertThat(this.client.renewalsOf("within-slack")).containsExactly(at(100));
		assertThat(this.client.renewalsOf("beyond-slack")).containsExactly(at(113));
		assertThat(this.client.batches).containsExactly(2, 1);
	}

	@Test
	void moreThanAThousandDueLeasesAreRenewedInBatchesOfAtMostAThousand() {
		for (int i = 0; i < 2500; i++) {
			this.renewer.register("k" + i, "owner", TTL, this.lost::incrementAndGet);
		}
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.client.batches).containsExactly(1000, 1000, 500);
	}

	@Test
	void leaseDueSoonerThanTheScheduledTickIsRenewedInTime() {
		this.renewer.register("slow", "owner", Duration.ofMinutes(1), this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(5));
		this.renewer.register("fast", "owner", TTL, this.lost::incrementAndGet);
		assertThat(this.scheduler.pendingTasks()).as("the later tick was replaced").isOne();
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.client.renewalsOf("fast")).containsExactly(at(105));
		this.scheduler.advance(Duration.ofSeconds(20));
		// Due at 20s, less its 2.5s slack: renewed with the first batch of "fast" after
		// 17.5s.
		assertThat(this.client.renewalsOf("slow")).containsExactly(at(17_505));
	}

	@Test
	void cancelledLeaseIsNeverRenewed() {
		Lease lease = this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.renewer.register("probe", "owner", TTL, this.lost::incrementAndGet);
		lease.cancel();
		assertThat(this.renewer.size()).isOne();
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.renewalsOf("probe")).hasSize(10);
		assertThat(this.client.renewalsOf("k")).isEmpty();
	}

	@Test
	void leaseFoundGoneIsReportedLostOnceAndNoLongerRenewed() {
		this.client.gone.add("k");
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.lost).hasValue(1);
		assertThat(this.client.attempts).containsExactly(at(100));
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void failingRenewalIsRetriedEveryQuarterIntervalUntilTheLeaseRunsOutAndThenLost() {
		this.client.failures.set(Integer.MAX_VALUE);
		List<Instant> lostAt = new ArrayList<>();
		this.renewer.register("k", "owner", TTL, () -> lostAt.add(this.scheduler.now()));
		this.scheduler.advance(Duration.ofSeconds(1));
		// No attempt at 300: the lease ran out then, and an answer could only come later.
		assertThat(this.client.attempts).containsExactly(at(100), at(125), at(150), at(175), at(200), at(225), at(250),
				at(275));
		assertThat(lostAt).containsExactly(T0.plus(TTL));
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void failingRenewalOfAShortLeaseIsRetriedNoMoreOftenThanEveryTenMilliseconds() {
		this.client.failures.set(Integer.MAX_VALUE);
		// Renewed every 20ms: a quarter of that would be 5ms.
		this.renewer.register("k", "owner", Duration.ofMillis(60), this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.attempts).containsExactly(at(20), at(30), at(40), at(50));
		assertThat(this.lost).hasValue(1);
	}

	@Test
	void leasesRenewedOnTimeAreNeverInTheBacklog() {
		this.renewer.register("a", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(40));
		this.renewer.register("b", "owner", TTL, this.lost::incrementAndGet);
		for (int i = 0; i < 100; i++) {
			this.scheduler.advance(Duration.ofMillis(10));
			assertThat(this.renewer.backlog()).isZero();
		}
		assertThat(this.renewer.size()).isEqualTo(2);
	}

	@Test
	void leaseWhoseRenewalKeepsFailingIsInTheBacklogUntilItIsLost() {
		this.client.failures.set(Integer.MAX_VALUE);
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(124));
		assertThat(this.renewer.backlog()).as("first renewal failed, retry not yet due").isZero();
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.renewer.backlog()).as("still unconfirmed a retry period after it was due").isOne();
		this.scheduler.advance(Duration.ofMillis(175));
		assertThat(this.lost).hasValue(1);
		assertThat(this.renewer.backlog()).isZero();
	}

	@Test
	void leaseLeavesTheBacklogOnceARenewalIsConfirmed() {
		this.client.failures.set(2);
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(140));
		assertThat(this.renewer.backlog()).isOne();
		this.scheduler.advance(Duration.ofMillis(10));
		assertThat(this.renewer.backlog()).isZero();
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void renewalThatFailsBrieflyKeepsTheLease() {
		this.client.failures.set(2);
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(300));
		assertThat(this.client.attempts).containsExactly(at(100), at(125), at(150), at(250));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(150), at(250));
		assertThat(this.lost).hasValue(0);
		assertThat(this.renewer.size()).isOne();
	}

	@Test
	void errorThrownByRenewAllIsRetriedLikeAnyFailedRenewal() {
		this.client.failure = new Error("broken client");
		this.client.failures.set(1);
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(300));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(125), at(225));
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void errorThrownByALostCallbackDoesNotStopTheRenewalOfOtherLeases() {
		List<Instant> lostAt = new CopyOnWriteArrayList<>();
		for (String key : List.of("gone1", "gone2")) {
			this.client.gone.add(key);
			this.renewer.register(key, "owner", TTL, () -> {
				lostAt.add(this.scheduler.now());
				throw new Error("broken callback");
			});
		}
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(300));
		assertThat(lostAt).containsExactly(at(100), at(100));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(200), at(300));
		assertThat(this.renewer.size()).isOne();
	}

	@Test
	void leaseOfAHolderThreadThatEndedIsReportedLostOnceAndNoLongerRenewed() throws Exception {
		Thread holder = new Thread(() -> this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet));
		holder.start();
		holder.join();
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.renewer.size()).isZero();
		assertThat(this.client.attempts).isEmpty();
		assertThat(this.lost).hasValue(1);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.lost).hasValue(1);
	}

	@Test
	void detachedLeaseIsStillRenewedAfterTheThreadThatRegisteredItEnded() throws Exception {
		Thread caller = new Thread(
				() -> this.renewer.registerDetached("k", "owner", TTL, T0, this.lost::incrementAndGet));
		caller.start();
		caller.join();
		this.scheduler.advance(Duration.ofMillis(350));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(200), at(300));
		assertThat(this.renewer.size()).isOne();
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void detachedLeaseHeldLongerThanTheMaximumHoldTimeIsReportedLost() throws Exception {
		List<Instant> lostAt = new CopyOnWriteArrayList<>();
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofMillis(250), this.scheduler, Runnable::run,
				Runnable::run)) {
			Thread caller = new Thread(() -> renewer.registerDetached("k", "owner", Duration.ofMillis(150), T0,
					() -> lostAt.add(this.scheduler.now())));
			caller.start();
			caller.join();
			this.scheduler.advance(Duration.ofSeconds(1));
			assertThat(renewer.size()).isZero();
			assertThat(lostAt).containsExactly(at(300));
		}
	}

	@Test
	void leaseOfABrieflyInterruptedHolderThreadIsStillRenewed() {
		// The test thread holds the lease and also runs the ticks.
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		Thread.currentThread().interrupt();
		try {
			this.scheduler.advance(Duration.ofMillis(150));
		}
		finally {
			Thread.interrupted();
		}
		this.scheduler.advance(Duration.ofMillis(150));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(200), at(300));
		assertThat(this.renewer.size()).isOne();
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void leaseHeldLongerThanTheMaximumHoldTimeIsReportedLostOnceAndNoLongerRenewed() {
		List<Instant> lostAt = new CopyOnWriteArrayList<>();
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofMillis(250), this.scheduler, Runnable::run,
				Runnable::run)) {
			renewer.register("k", "owner", Duration.ofMillis(150), () -> lostAt.add(this.scheduler.now()));
			this.scheduler.advance(Duration.ofSeconds(1));
			assertThat(this.client.renewalsOf("k")).containsExactly(at(50), at(100), at(150), at(200), at(250));
			assertThat(renewer.size()).isZero();
			assertThat(lostAt).containsExactly(at(300));
		}
	}

	@Test
	void closeReportsTheLeasesItStopsRenewingLost() {
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.renewer.close();
		assertThat(this.lost).hasValue(1);
	}

	@Test
	void leaseWhoseRenewalHangsIsReportedLostAtItsExpiryAndALateSuccessDoesNotRenewIt() {
		this.client.hanging.add("k");
		LeaseRenewer renewer = renewerWithRenewalThreads();
		List<Instant> lostAt = new CopyOnWriteArrayList<>();
		renewer.register("k", "owner", TTL, () -> lostAt.add(this.scheduler.now()));
		this.scheduler.advance(Duration.ofMillis(100));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.hangingCalls.get() == 1);
		this.scheduler.advance(Duration.ofMillis(199));
		assertThat(lostAt).isEmpty();
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(lostAt).containsExactly(T0.plus(TTL));
		assertThat(renewer.size()).isZero();
		// The call returns "renewed" after all: too late, the holder was told already.
		this.client.unhang.countDown();
		this.renewalThreads.settle(1);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(lostAt).hasSize(1);
		assertThat(this.client.attempts).as("no second renewal while the first was under way").containsExactly(at(100));
		assertThat(renewer.size()).isZero();
	}

	@Test
	void renewalHangingForOneBatchDoesNotStallTheNextTick() {
		this.client.hanging.add("hung");
		LeaseRenewer renewer = renewerWithRenewalThreads();
		List<Instant> lostAt = new CopyOnWriteArrayList<>();
		renewer.register("hung", "owner", TTL, () -> lostAt.add(this.scheduler.now()));
		this.scheduler.advance(Duration.ofMillis(50));
		renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.hangingCalls.get() == 1);
		this.scheduler.advance(Duration.ofMillis(50));
		this.renewalThreads.settle(1);
		this.scheduler.advance(Duration.ofMillis(100));
		this.renewalThreads.settle(2);
		this.scheduler.advance(Duration.ofMillis(50));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(150), at(250));
		assertThat(lostAt).containsExactly(at(300));
		assertThat(this.lost).hasValue(0);
		assertThat(renewer.size()).isOne();
	}

	@Test
	void lostCallbackThatBlocksDoesNotDelayTheNextRenewal() throws Exception {
		ExecutorService listenerThread = Executors.newSingleThreadExecutor();
		CountDownLatch unblock = new CountDownLatch(1);
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1), this.scheduler, Runnable::run,
				listenerThread)) {
			this.client.gone.add("gone");
			renewer.register("gone", "owner", TTL, () -> {
				try {
					unblock.await(5, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				this.lost.incrementAndGet();
			});
			renewer.register("k", "owner", TTL, () -> {
			});
			assertTimeoutPreemptively(Duration.ofSeconds(2), () -> this.scheduler.advance(Duration.ofMillis(300)));
			assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(200), at(300));
			assertThat(this.lost).as("the callback is still blocked").hasValue(0);
		}
		finally {
			unblock.countDown();
			listenerThread.shutdown();
		}
		assertThat(listenerThread.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
		assertThat(this.lost).hasValue(1);
	}

	@Test
	void lostLeaseIsMarkedLostOnTheTickingThreadBeforeItsCallbackRuns() {
		List<Runnable> queuedCallbacks = new ArrayList<>();
		List<Runnable> queuedNotifications = new ArrayList<>();
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1), this.scheduler, Runnable::run,
				queuedCallbacks::add)) {
			this.client.gone.add("gone");
			Lease gone = renewer.register("gone", "owner", TTL, this.lost::incrementAndGet);
			Lease kept = renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
			this.scheduler.advance(Duration.ofMillis(100));
			// The callback waits for a busy thread; the lease is lost already.
			assertThat(gone.isLost()).isTrue();
			assertThat(kept.isLost()).isFalse();
			assertThat(this.lost).hasValue(0);
			assertThat(queuedCallbacks).hasSize(1);
			queuedCallbacks.get(0).run();
			assertThat(this.lost).hasValue(1);
		}
	}

	@Test
	void cancelledLeaseIsNeverMarkedLost() {
		Lease lease = this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		lease.cancel();
		this.scheduler.advance(Duration.ofMillis(400));
		assertThat(lease.isLost()).isFalse();
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void listenersAreNotifiedOnTheirOwnExecutorAndAFailingOneIsLogged() {
		List<String> notified = new ArrayList<>();
		this.renewer.notifyListeners("k", () -> notified.add("k"));
		this.renewer.notifyListeners("failing", () -> {
			throw new IllegalStateException("listener failed");
		});
		this.renewer.notifyListeners("k2", () -> notified.add("k2"));
		assertThat(notified).containsExactly("k", "k2");
	}

	@Test
	void errorThrownByRenewAllOnARenewalThreadIsRetriedLikeAnyFailedRenewal() {
		this.client.failure = new Error("broken client");
		this.client.failures.set(1);
		LeaseRenewer renewer = renewerWithRenewalThreads();
		renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(100));
		this.renewalThreads.settle(1);
		this.scheduler.advance(Duration.ofMillis(25));
		this.renewalThreads.settle(2);
		assertThat(this.client.renewalsOf("k")).containsExactly(at(125));
		assertThat(this.lost).hasValue(0);
		assertThat(renewer.size()).isOne();
	}

	@Test
	void registrationWhoseTickIsRejectedFailsAndLeavesNoLeaseBehind() {
		this.scheduler.reject(true);
		assertThatExceptionOfType(TaskRejectedException.class)
			.isThrownBy(() -> this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet));
		assertThat(this.renewer.size()).isZero();
		this.scheduler.reject(false);
		this.renewer.register("k2", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.renewalsOf("k")).isEmpty();
		assertThat(this.client.renewalsOf("k2")).hasSize(10);
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void tickWhoseNextRunIsRejectedIsScheduledAgainByTheNextRegistration() {
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.reject(true);
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.scheduler.pendingTasks()).isZero();
		this.scheduler.reject(false);
		this.scheduler.advance(Duration.ofMillis(50));
		this.renewer.register("k2", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(100));
		// Renewed with k2's batch, within k's slack.
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(250));
		assertThat(this.client.renewalsOf("k2")).containsExactly(at(250));
	}

	@Test
	void noTickIsScheduledOnceTheLastLeaseIsGone() {
		Lease lease = this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.scheduler.pendingTasks()).isOne();
		lease.cancel();
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.scheduler.pendingTasks()).isZero();
	}

	@Test
	void leaseRegisteredBeforeStartIsRenewed() {
		assertThat(this.renewer.isRunning()).isFalse();
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100));
		assertThat(this.renewer.isRunning()).isTrue();
	}

	@Test
	void closeStopsRenewingAndRejectsRegistrationNamingTheKey() {
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.renewer.close();
		assertThat(this.renewer.size()).isZero();
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.attempts).isEmpty();
		assertThatIllegalStateException()
			.isThrownBy(() -> this.renewer.register("order:42", "owner", TTL, this.lost::incrementAndGet))
			.withMessageContaining("'order:42'");
	}

	@Test
	void closeLeavesTheCallersSchedulerRunning() {
		ThreadPoolTaskScheduler callers = new ThreadPoolTaskScheduler();
		callers.initialize();
		try {
			new LeaseRenewer(this.client, Duration.ofHours(1), callers).close();
			assertThat(callers.getScheduledExecutor().isShutdown()).isFalse();
		}
		finally {
			callers.shutdown();
		}
	}

	@Test
	void closedRenewerDoesNotStartAgain() {
		this.renewer.close();
		this.renewer.start();
		assertThat(this.renewer.isRunning()).isFalse();
	}

	@Test
	void stopsAfterTheApplicationsBeansAndBeforeTheConnectionFactory() {
		// A higher phase stops earlier.
		assertThat(this.renewer.getPhase()).isLessThan(SmartLifecycle.DEFAULT_PHASE)
			.isGreaterThan(new LettuceConnectionFactory().getPhase());
	}

	@Test
	void clockIsTheSchedulersClock() {
		assertThat(this.renewer.getClock().instant()).isEqualTo(T0);
		this.scheduler.advance(Duration.ofMillis(7));
		assertThat(this.renewer.getClock().instant()).isEqualTo(at(7));
	}

	@Test
	void defaultRenewerTicksCallsTheStoreAndRunsCallbacksOnDaemonThreadsOfTheirOwn() {
		CountingClient client = new CountingClient(Clock.systemUTC());
		client.gone.add("gone");
		List<Thread> callbackThreads = new CopyOnWriteArrayList<>();
		try (LeaseRenewer renewer = new LeaseRenewer(client, Duration.ofHours(1))) {
			renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
			renewer.register("gone", "owner", TTL, () -> callbackThreads.add(Thread.currentThread()));
			await().atMost(Duration.ofSeconds(5)).until(() -> client.renewalsOf("k").size() >= 2);
			assertThat(client.threads).singleElement().satisfies((thread) -> {
				assertThat(thread.getName()).isEqualTo("distlock-lease-renewal-1");
				assertThat(thread.isDaemon()).isTrue();
			});
			assertThat(callbackThreads).singleElement().satisfies((thread) -> {
				assertThat(thread.getName()).startsWith("distlock-lock-lost-");
				assertThat(thread.isDaemon()).isTrue();
			});
			assertThat(Thread.getAllStackTraces().keySet()).anySatisfy((thread) -> {
				assertThat(thread.getName()).isEqualTo("distlock-lease-renewer");
				assertThat(thread.isDaemon()).isTrue();
			});
			assertThat(renewer.getClock()).isInstanceOf(MonotonicClock.class);
		}
	}

	private LeaseRenewer renewerWithRenewalThreads() {
		this.renewer.close();
		LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1), this.scheduler, this.renewalThreads,
				Runnable::run);
		this.closeLater.add(renewer);
		return renewer;
	}

	private static Instant at(long millis) {
		return T0.plusMillis(millis);
	}

	/**
	 * Runs renewal calls on threads of their own, as the renewer's default does, and lets
	 * a test wait for them to finish.
	 */
	private final class RenewalThreads implements Executor {

		final ExecutorService pool = Executors.newCachedThreadPool();

		private final AtomicInteger finished = new AtomicInteger();

		@Override
		public void execute(Runnable task) {
			this.pool.execute(() -> {
				try {
					task.run();
				}
				finally {
					this.finished.incrementAndGet();
				}
			});
		}

		/**
		 * Wait until the given number of calls finished, then run the ticks they asked
		 * for, without moving the clock.
		 * @param calls how many calls in all
		 */
		void settle(int calls) {
			await().atMost(Duration.ofSeconds(5)).until(() -> this.finished.get() >= calls);
			LeaseRenewerTests.this.scheduler.advance(Duration.ZERO);
		}

	}

	/**
	 * A {@link LockClient} that only renews: it records when it was asked, can fail, can
	 * report locks gone, and can hang.
	 */
	static final class CountingClient implements LockClient {

		final List<Instant> attempts = new CopyOnWriteArrayList<>();

		final List<Integer> batches = new CopyOnWriteArrayList<>();

		final AtomicInteger failures = new AtomicInteger();

		volatile Throwable failure = new IllegalStateException("Redis is unreachable");

		final Set<String> gone = ConcurrentHashMap.newKeySet();

		final Set<Thread> threads = ConcurrentHashMap.newKeySet();

		final Set<String> hanging = ConcurrentHashMap.newKeySet();

		final AtomicInteger hangingCalls = new AtomicInteger();

		final CountDownLatch unhang = new CountDownLatch(1);

		private final Map<String, List<Instant>> renewals = new ConcurrentHashMap<>();

		private final Clock clock;

		CountingClient(Clock clock) {
			this.clock = clock;
		}

		List<Instant> renewalsOf(String key) {
			return this.renewals.getOrDefault(key, List.of());
		}

		@Override
		public boolean[] renewAll(List<Renewal> renewals) {
			Instant now = this.clock.instant();
			this.threads.add(Thread.currentThread());
			this.attempts.add(now);
			if (renewals.stream().anyMatch((renewal) -> this.hanging.contains(renewal.key()))) {
				// As a call to a frozen Redis: answers, "renewed", only when let go.
				this.hangingCalls.incrementAndGet();
				try {
					this.unhang.await(2, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			if (this.failures.getAndDecrement() > 0) {
				if (this.failure instanceof Error error) {
					throw error;
				}
				throw (RuntimeException) this.failure;
			}
			this.batches.add(renewals.size());
			boolean[] renewed = new boolean[renewals.size()];
			for (int i = 0; i < renewed.length; i++) {
				String key = renewals.get(i).key();
				renewed[i] = !this.gone.contains(key);
				if (renewed[i]) {
					this.renewals.computeIfAbsent(key, (k) -> new CopyOnWriteArrayList<>()).add(now);
				}
			}
			return renewed;
		}

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean release(String key, String ownerToken) {
			throw new UnsupportedOperationException();
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
