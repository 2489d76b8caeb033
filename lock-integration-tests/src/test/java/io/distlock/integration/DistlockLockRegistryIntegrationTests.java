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

package io.distlock.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.HeldLock;
import io.distlock.LockAcquisitionException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.DistributedLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link DistlockLockRegistry} against a real redis-server, with
 * two applications (two registries on lock stacks of their own): the locks behave as
 * Spring Integration's registries' do (re-entrant for the holder, unlocked only by it,
 * renewable), never overlap across applications, and are distlock locks while held.
 */
@Timeout(60)
class DistlockLockRegistryIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack firstStack;

	private LockStack secondStack;

	private DistlockLockRegistry first;

	private DistlockLockRegistry second;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void createApplications() {
		this.firstStack = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.secondStack = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.first = new DistlockLockRegistry(this.firstStack.template(), TTL);
		this.second = new DistlockLockRegistry(this.secondStack.template(), TTL);
	}

	@AfterEach
	void closeApplications() {
		this.threads.shutdownNow();
		this.firstStack.close();
		this.secondStack.close();
	}

	@Test
	void holdingThreadReentersAndTheOutermostUnlockReleasesInRedis() {
		DistributedLock lock = this.first.obtain("reentrant");
		lock.lock();
		assertThat(lock.tryLock()).isTrue();
		lock.unlock();
		assertThat(exists("lock:reentrant")).as("held after the inner unlock").isTrue();
		assertThat(this.second.obtain("reentrant").tryLock()).isFalse();
		lock.unlock();
		assertThat(exists("lock:reentrant")).as("held after the outer unlock").isFalse();
		assertThat(this.second.obtain("reentrant").tryLock()).isTrue();
		this.second.obtain("reentrant").unlock();
	}

	@Test
	void anotherThreadCanNeitherUnlockNorTakeAHeldLock() throws Exception {
		DistributedLock lock = this.first.obtain("owned");
		lock.lock();
		try {
			Future<Boolean> taken = this.threads.submit(() -> lock.tryLock());
			assertThat(taken.get(10, TimeUnit.SECONDS)).isFalse();
			Future<?> unlocked = this.threads.submit(lock::unlock);
			assertThat(catchCause(unlocked)).isInstanceOf(IllegalStateException.class)
				.hasMessage("The current thread does not hold the lock 'owned'");
			assertThat(exists("lock:owned")).isTrue();
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void heldLockIsTheThreadsLockContextWithAFencingToken() {
		DistributedLock lock = this.first.obtain("bound");
		long token;
		lock.lock();
		try {
			LockHandle handle = LockContext.require();
			assertThat(handle.key()).isEqualTo("bound");
			token = handle.fencingToken();
			assertThat(token).isPositive();
			assertThat(this.firstStack.template().getEngine().getHeldLocks()).extracting(HeldLock::key, HeldLock::name)
				.containsExactly(tuple("bound", DistlockLockRegistry.LOCK_NAME));
		}
		finally {
			lock.unlock();
		}
		assertThat(LockContext.current()).isEmpty();
		DistributedLock next = this.second.obtain("bound");
		next.lock();
		try {
			assertThat(LockContext.require().fencingToken()).isGreaterThan(token);
		}
		finally {
			next.unlock();
		}
	}

	@Test
	void tryLockWithAWaitTakesTheLockWhenTheOtherApplicationReleasesIt() throws Exception {
		DistributedLock held = this.second.obtain("handover");
		held.lock();
		CountDownLatch waiting = new CountDownLatch(1);
		Future<Boolean> taken = this.threads.submit(() -> {
			waiting.countDown();
			DistributedLock lock = this.first.obtain("handover");
			boolean acquired = lock.tryLock(Duration.ofSeconds(20), TTL);
			if (acquired) {
				lock.unlock();
			}
			return acquired;
		});
		waiting.await();
		Thread.sleep(200);
		held.unlock();
		assertThat(taken.get(20, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void twoApplicationsNeverHoldALockAtOnce() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger runs = new AtomicInteger();
		List<Future<?>> calls = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			DistlockLockRegistry registry = (i % 2 == 0) ? this.first : this.second;
			calls.add(this.threads.submit(() -> {
				for (int run = 0; run < 10; run++) {
					registry.executeLocked("shared", () -> {
						if (inside.incrementAndGet() > 1) {
							overlaps.incrementAndGet();
						}
						runs.incrementAndGet();
						Thread.sleep(2);
						inside.decrementAndGet();
					});
				}
				return null;
			}));
		}
		for (Future<?> call : calls) {
			call.get(50, TimeUnit.SECONDS);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(runs).hasValue(80);
	}

	@Test
	void unlockOfALockLostMeanwhileThrowsAndLetsItGo() throws Exception {
		DistlockLockRegistry registry = new DistlockLockRegistry(this.firstStack.template(), Duration.ofMillis(600));
		DistributedLock lock = registry.obtain("lost");
		lock.lock();
		LockHandle handle = LockContext.require();
		redis.endpoint().command("DEL", "lock:lost");
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.whenLost().toCompletableFuture().isDone());
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'lost' was lost before its unlock");
		assertThat(LockContext.current()).isEmpty();
		assertThat(this.threads.submit(() -> {
			boolean acquired = lock.tryLock();
			lock.unlock();
			return acquired;
		}).get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void reentryAfterTheLockWasLostTakesNoNewLockAndTheFinalUnlockReportsTheLoss() throws Exception {
		DistlockLockRegistry registry = new DistlockLockRegistry(this.firstStack.template(), Duration.ofMillis(600));
		DistributedLock lock = registry.obtain("lost-reentry");
		lock.lock();
		LockHandle outer = LockContext.require();
		redis.endpoint().command("DEL", "lock:lost-reentry");
		await().atMost(Duration.ofSeconds(10)).until(() -> outer.whenLost().toCompletableFuture().isDone());
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(lock::tryLock)
			.withMessageContaining("Lock 'lost-reentry' cannot be re-entered");
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(lock::lock)
			.withMessageContaining("Lock 'lost-reentry' cannot be re-entered");
		assertThat(exists("lock:lost-reentry")).as("no new lock taken for the re-entry").isFalse();
		assertThat(LockContext.require()).as("the outer section keeps its handle and token").isSameAs(outer);
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'lost-reentry' was lost before its unlock");
		assertThat(LockContext.current()).isEmpty();
		assertThat(lock.tryLock()).as("a new hold takes a new lock").isTrue();
		lock.unlock();
	}

	@Test
	void reentryWhileAnotherApplicationHoldsTheLostLockFailsAndTheFinalUnlockReportsTheLoss() throws Exception {
		DistlockLockRegistry registry = new DistlockLockRegistry(this.firstStack.template(), Duration.ofMillis(600));
		DistributedLock lock = registry.obtain("taken-over");
		lock.lock();
		LockHandle outer = LockContext.require();
		redis.endpoint().command("DEL", "lock:taken-over");
		DistributedLock other = this.second.obtain("taken-over");
		assertThat(this.threads.submit(() -> other.tryLock()).get(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> outer.whenLost().toCompletableFuture().isDone());
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> lock.tryLock(Duration.ofMillis(200), TTL));
		assertThat(LockContext.require()).isSameAs(outer);
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock);
	}

	@Test
	void leaderInitiatorWhoseLockIsTakenOverIsRevokedAndLeadsAgainWithAHigherToken() throws Exception {
		DistlockLockRegistry registry = new DistlockLockRegistry(this.firstStack.template(), Duration.ofMillis(600));
		BlockingQueue<String> events = new LinkedBlockingQueue<>();
		List<Long> tokens = new CopyOnWriteArrayList<>();
		LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry,
				new DefaultCandidate("first", "leader-loss") {

					@Override
					public void onGranted(Context context) {
						tokens.add(LockContext.require().fencingToken());
						events.add("granted");
					}

					@Override
					public void onRevoked(Context context) {
						events.add("revoked");
					}

				});
		initiator.setHeartBeatMillis(100);
		initiator.setBusyWaitMillis(100);
		initiator.start();
		try {
			assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("granted");
			// Another owner takes the key from under the leader, in one command.
			redis.endpoint().command("SET", "lock:leader-loss", "another-owner", "PX", "60000");
			assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("revoked");
			assertThat(events.poll(500, TimeUnit.MILLISECONDS)).as("no leader while another owner holds the key")
				.isNull();
			redis.endpoint().command("DEL", "lock:leader-loss");
			assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("granted");
			assertThat(tokens).hasSize(2);
			assertThat(tokens.get(1)).isGreaterThan(tokens.get(0));
		}
		finally {
			initiator.stop();
		}
	}

	@Test
	void renewLockSetsTheLeaseForTheHolderOnly() throws Exception {
		DistributedLock lock = this.first.obtain("renewed");
		lock.lock(Duration.ofSeconds(5));
		try {
			this.first.renewLock("renewed", Duration.ofMinutes(2));
			assertThat((Long) redis.endpoint().command("PTTL", "lock:renewed")).isGreaterThan(60_000);
			Future<?> fromOtherThread = this.threads.submit(() -> this.first.renewLock("renewed"));
			assertThat(catchCause(fromOtherThread)).isInstanceOf(IllegalStateException.class);
		}
		finally {
			lock.unlock();
		}
		assertThatIllegalStateException().isThrownBy(() -> this.first.renewLock("renewed"));
	}

	@Test
	void registryKeyIsPutBeforeEachKey() {
		DistlockLockRegistry orders = new DistlockLockRegistry(this.firstStack.template(), "orders", TTL);
		DistributedLock lock = orders.obtain("42");
		lock.lock();
		try {
			assertThat(exists("lock:orders:42")).isTrue();
			assertThat(this.first.obtain("42").tryLock()).isTrue();
			this.first.obtain("42").unlock();
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void onlyStringKeysAreObtained() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.first.obtain(42))
			.withMessageContaining("DistlockLockRegistry.obtain(lockKey) takes String keys");
	}

	@Test
	void keyThatCannotBeALockKeyFailsWhenObtained() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.first.obtain(" "));
		assertThatIllegalArgumentException().isThrownBy(() -> this.first.obtain("line\nbreak"));
	}

	@Test
	void expiringUnusedLocksForgetsThoseNobodyHolds() {
		Lock held = this.first.obtain("kept");
		Lock idle = this.first.obtain("idle");
		held.lock();
		try {
			this.first.expireUnusedOlderThan(-1);
			assertThat(this.first.obtain("kept")).isSameAs(held);
			assertThat(this.first.obtain("idle")).isNotSameAs(idle);
		}
		finally {
			held.unlock();
		}
	}

	@Test
	void interruptedWaiterThrowsAndDoesNotHoldTheLock() throws Exception {
		DistributedLock held = this.second.obtain("interrupted");
		held.lock();
		try {
			CompletableFuture<Thread> waiter = new CompletableFuture<>();
			DistributedLock lock = this.first.obtain("interrupted");
			Future<?> waiting = this.threads.submit(() -> {
				waiter.complete(Thread.currentThread());
				lock.lockInterruptibly();
				return null;
			});
			Thread thread = waiter.get(10, TimeUnit.SECONDS);
			Thread.sleep(200);
			thread.interrupt();
			assertThat(catchCause(waiting)).isInstanceOf(InterruptedException.class);
			assertThat(this.threads.submit(() -> lock.tryLock()).get(10, TimeUnit.SECONDS)).isFalse();
		}
		finally {
			held.unlock();
		}
	}

	private static boolean exists(String key) {
		return ((Long) redis.endpoint().command("EXISTS", key)) == 1L;
	}

	private static Throwable catchCause(Future<?> future) throws InterruptedException {
		try {
			future.get(10, TimeUnit.SECONDS);
			throw new AssertionError("Expected a failure");
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (TimeoutException ex) {
			throw new AssertionError("Timed out", ex);
		}
	}

}
