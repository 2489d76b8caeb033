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

package io.distlock.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.HeldLock;
import io.distlock.LockAcquisitionException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What distlock adds under ShedLock's executor, against a real redis-server: the job sees
 * its lock in {@link LockContext} with a fencing token (a lock taken outside the executor
 * is not bound), the lock is among the held locks while the job runs,
 * {@code LockExtender} extends it in Redis, {@code lockAtLeastFor} keeps it from a second
 * application, and two applications never run a job at once.
 */
@Timeout(60)
class DistlockLockProviderIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack first;

	private LockStack second;

	private LockingTaskExecutor firstExecutor;

	private LockingTaskExecutor secondExecutor;

	@BeforeEach
	void createApplications() {
		this.first = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.second = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.firstExecutor = new DefaultLockingTaskExecutor(new DistlockLockProvider(this.first.template()));
		this.secondExecutor = new DefaultLockingTaskExecutor(new DistlockLockProvider(this.second.template()));
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
	}

	@Test
	void jobSeesItsLockInLockContextWithAFencingTokenAndNothingIsBoundAfterIt() {
		long[] tokens = new long[2];
		for (int i = 0; i < 2; i++) {
			int run = i;
			this.firstExecutor.executeWithLock((Runnable) () -> {
				LockHandle lock = LockContext.require();
				assertThat(lock.key()).isEqualTo("report");
				assertThat(lock.isHeld()).isTrue();
				tokens[run] = lock.fencingToken();
			}, config("report", Duration.ofSeconds(30), Duration.ZERO));
			assertThat(LockContext.current()).isEmpty();
		}
		assertThat(tokens[0]).isPositive();
		assertThat(tokens[1]).isGreaterThan(tokens[0]);
		assertThat(redis.endpoint().command("EXISTS", "lock:report")).isEqualTo(0L);
	}

	@Test
	void lockTakenOutsideShedLocksExecutorIsNotBoundToTheThread() {
		DistlockLockProvider provider = new DistlockLockProvider(this.first.template());
		SimpleLock lock = provider.lock(config("manual", Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
		try {
			// Nothing says it is unlocked on this thread: bound, it could stay behind.
			assertThat(LockContext.current()).isEmpty();
			assertThat(this.first.template().getEngine().getHeldLocks()).extracting(HeldLock::key)
				.containsExactly("manual");
		}
		finally {
			lock.unlock();
		}
		assertThat(redis.endpoint().command("EXISTS", "lock:manual")).isEqualTo(0L);
	}

	@Test
	void runningJobIsAmongTheHeldLocksUnderItsName() {
		List<HeldLock> during = new ArrayList<>();
		this.firstExecutor.executeWithLock(
				(Runnable) () -> during.addAll(this.first.template().getEngine().getHeldLocks()),
				config("nightly-export", Duration.ofSeconds(30), Duration.ZERO));
		assertThat(during).singleElement().satisfies((held) -> {
			assertThat(held.key()).isEqualTo("nightly-export");
			assertThat(held.name()).isEqualTo("nightly-export");
		});
		assertThat(this.first.template().getEngine().getHeldLocks()).isEmpty();
	}

	@Test
	void lockExtenderExtendsTheLeaseInRedisAndTheJobKeepsItsLock() {
		long[] pttl = new long[2];
		this.firstExecutor.executeWithLock((Runnable) () -> {
			LockHandle before = LockContext.require();
			pttl[0] = (Long) redis.endpoint().command("PTTL", "lock:extended");
			LockExtender.extendActiveLock(Duration.ofMinutes(5), Duration.ZERO);
			pttl[1] = (Long) redis.endpoint().command("PTTL", "lock:extended");
			assertThat(LockContext.require()).isSameAs(before);
		}, config("extended", Duration.ofSeconds(10), Duration.ZERO));
		assertThat(pttl[0]).isPositive().isLessThanOrEqualTo(10_000);
		assertThat(pttl[1]).isGreaterThan(60_000);
		assertThat(redis.endpoint().command("EXISTS", "lock:extended")).isEqualTo(0L);
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void nestedLockedCallInAJobPastItsLockAtMostForFailsAndDoesNotRunWhileAnotherOwnerHoldsTheKey() {
		AtomicBoolean ran = new AtomicBoolean();
		AtomicReference<Throwable> nestedFailure = new AtomicReference<>();
		AtomicBoolean otherHeld = new AtomicBoolean();
		this.firstExecutor.executeWithLock((Runnable) () -> {
			// The job outlives lockAtMostFor: its key expires, and another application
			// takes it.
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> redis.endpoint().command("EXISTS", "lock:overrun").equals(0L));
			try (LockHandle other = this.second.template()
				.tryAcquire(LockRequest.of("overrun", Duration.ofSeconds(10), Duration.ZERO))
				.orElseThrow()) {
				try {
					this.first.template()
						.execute(LockRequest.of("overrun", Duration.ofSeconds(10), Duration.ZERO),
								(nested) -> ran.getAndSet(true));
				}
				catch (RuntimeException ex) {
					nestedFailure.set(ex);
				}
				otherHeld.set(other.isHeld());
			}
		}, config("overrun", Duration.ofMillis(300), Duration.ZERO));
		assertThat(ran).as("the nested code ran without the lock").isFalse();
		assertThat(nestedFailure.get()).isInstanceOf(LockAcquisitionException.class)
			.hasMessageContaining("Lock 'overrun' cannot be re-entered");
		assertThat(otherHeld).as("the other owner held the key meanwhile").isTrue();
	}

	@Test
	void lockAtLeastForKeepsTheJobFromASecondApplicationAfterItEnds() {
		AtomicInteger runs = new AtomicInteger();
		this.firstExecutor.executeWithLock((Runnable) runs::incrementAndGet,
				config("hourly", Duration.ofSeconds(30), Duration.ofSeconds(10)));
		this.secondExecutor.executeWithLock((Runnable) runs::incrementAndGet,
				config("hourly", Duration.ofSeconds(30), Duration.ofSeconds(10)));
		assertThat(runs).hasValue(1);
		assertThat((Long) redis.endpoint().command("PTTL", "lock:hourly")).isPositive().isLessThanOrEqualTo(10_000);
	}

	@Test
	void twoApplicationsStartingAJobTogetherNeverRunItAtOnce() throws Exception {
		AtomicInteger running = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger runs = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			for (int round = 0; round < 20; round++) {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<?>> calls = new ArrayList<>();
				for (int i = 0; i < 8; i++) {
					LockingTaskExecutor executor = (i % 2 == 0) ? this.firstExecutor : this.secondExecutor;
					calls.add(threads.submit(() -> {
						start.await();
						executor.executeWithLock((Runnable) () -> {
							if (running.incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
							runs.incrementAndGet();
							sleep(5);
							running.decrementAndGet();
						}, config("contended", Duration.ofSeconds(30), Duration.ZERO));
						return null;
					}));
				}
				start.countDown();
				for (Future<?> call : calls) {
					call.get(30, TimeUnit.SECONDS);
				}
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
		assertThat(runs.get()).isBetween(20, 160);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
		return new LockConfiguration(Instant.now(), name, atMost, atLeast);
	}

}
