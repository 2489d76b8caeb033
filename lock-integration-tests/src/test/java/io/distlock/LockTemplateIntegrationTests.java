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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.distlock.LockSettings;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.CriticalSections;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link LockTemplate} against a real redis-server.
 */
class LockTemplateIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final List<String> lost = new CopyOnWriteArrayList<>();

	private final LockWaiter waiter = new LockWaiter(Duration.ofMillis(500));

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint())
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.waiter(this.waiter)
			.listeners(new LockListener() {

				@Override
				public void onLost(LockEvent.Lost event) {
					LockTemplateIntegrationTests.this.lost.add(event.key());
				}

			})
			.build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() {
		this.stack.close();
	}

	@Test
	void tryAcquireReturnsAHeldHandleUnderThePrefixedKey() {
		try (LockHandle handle = this.template.tryAcquire("order:42", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(handle.key()).isEqualTo("order:42");
			assertThat(handle.fencingToken()).isPositive();
			assertThat(handle.isHeld()).isTrue();
			assertThat(redis.endpoint().command("EXISTS", "lock:order:42")).isEqualTo(1L);
		}
		assertThat(redis.endpoint().command("EXISTS", "lock:order:42")).isEqualTo(0L);
	}

	@Test
	void keyPrefixCanBeChanged() {
		this.template = this.stack.template(LockSettings.builder().keyPrefix("app:locks:").build());
		try (LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(redis.endpoint().command("EXISTS", "app:locks:k")).isEqualTo(1L);
		}
	}

	@Test
	void closeIsIdempotentAndTheHandleIsNoLongerHeld() {
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		handle.close();
		handle.close();
		assertThat(handle.isHeld()).isFalse();
		assertThat(this.template.getEngine().getStatistics().getReleased()).isEqualTo(1);
	}

	@Test
	void busyLockWithZeroWaitTimeIsNotAcquired() {
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			long start = System.nanoTime();
			assertThat(this.template.tryAcquire("k", TTL, Duration.ZERO)).isEmpty();
			assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(1));
			assertThat(this.template.getEngine().getStatistics().getNotAcquired()).isEqualTo(1);
		}
	}

	@Test
	void busyLockIsWaitedForForTheWholeWaitTime() {
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			long start = System.nanoTime();
			assertThat(this.template.tryAcquire("k", TTL, Duration.ofMillis(300))).isEmpty();
			long waited = System.nanoTime() - start;
			assertThat(waited).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300))
				.isLessThan(TimeUnit.MILLISECONDS.toNanos(300 + 700));
			assertThat(this.waiter.waiting()).isZero();
		}
	}

	@Test
	void waiterAcquiresTheLockOnceTheHolderReleasesIt() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<Long> waiter = executor.submit(() -> {
				try (LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ofSeconds(10)).orElseThrow()) {
					return handle.fencingToken();
				}
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> this.waiter.waiting() == 1);
			holder.close();
			assertThat(waiter.get(10, TimeUnit.SECONDS)).isGreaterThan(holder.fencingToken());
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void executeRunsTheActionUnderTheLockAndReleasesIt() {
		String result = this.template.execute("k", TTL, Duration.ZERO, () -> {
			assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(1L);
			return "done";
		});
		assertThat(result).isEqualTo("done");
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void executeReleasesTheLockWhenTheActionThrowsAndRethrowsItUnchanged() {
		IllegalStateException failure = new IllegalStateException("boom");
		assertThatIllegalStateException().isThrownBy(() -> this.template.execute("k", TTL, Duration.ZERO, () -> {
			throw failure;
		})).isSameAs(failure);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void executeOfABusyLockThrowsWithTheKeyAndTimeWaitedAndDoesNotRunTheAction() {
		AtomicBoolean ran = new AtomicBoolean();
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> this.template.execute("k", TTL, Duration.ofMillis(100), () -> ran.getAndSet(true)))
				.satisfies((ex) -> {
					assertThat(ex.getKey()).isEqualTo("k");
					assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(100));
				});
		}
		assertThat(ran).isFalse();
	}

	@Test
	void releaseFailureDoesNotHideTheActionsException() {
		try (RedisServer server = RedisServer.start();
				LockStack stackOnServer = LockStack.on(server).withoutReleaseNotifier().withoutLeaseRenewer().build()) {
			LockTemplate template = stackOnServer.template();
			IllegalStateException failure = new IllegalStateException("the action's own failure");
			assertThatIllegalStateException().isThrownBy(() -> template.execute("k", TTL, Duration.ZERO, () -> {
				server.stop();
				throw failure;
			}))
				.isSameAs(failure)
				.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
					.isInstanceOf(LockBackendException.class));
		}
	}

	@Test
	void backendFailuresNameTheCallersKeyAndTheKeyInRedis() {
		try (RedisServer server = RedisServer.start();
				LockStack stackOnServer = LockStack.on(server).withoutReleaseNotifier().withoutLeaseRenewer().build()) {
			LockTemplate template = stackOnServer.template();
			LockHandle handle = template.tryAcquire("order:42", TTL, Duration.ZERO).orElseThrow();
			server.stop();
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(handle::close)
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order:42"))
				.satisfies((ex) -> assertThat(ex.getStoreKey()).isEqualTo("lock:order:42"));
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> template.tryAcquire("order:43", TTL, Duration.ZERO))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order:43"))
				.satisfies((ex) -> assertThat(ex.getStoreKey()).isEqualTo("lock:order:43"));
		}
	}

	@Test
	void statisticsAreAReadOnlyViewOfTheTemplatesCounts() {
		LockStatistics statistics = this.template.getEngine().getStatistics();
		assertThat(statistics).isNotInstanceOf(LockListener.class);
		this.template.execute("counted", TTL, Duration.ZERO, () -> "done");
		try (LockHandle held = this.template.tryAcquire("counted", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(this.template.tryAcquire("counted", TTL, Duration.ZERO)).isEmpty();
		}
		assertThat(statistics.getAcquired()).isEqualTo(2);
		assertThat(statistics.getNotAcquired()).isEqualTo(1);
		assertThat(statistics.getReleased()).isEqualTo(2);
	}

	@Test
	void nestedExecuteOfTheSameKeyReentersTheOuterLock() {
		String result = this.template.execute(LockRequest.of("outer", TTL, Duration.ZERO), (outer) -> {
			assertThat(LockContext.current()).contains(outer);
			return this.template.execute(LockRequest.of("outer", TTL, Duration.ZERO), (inner) -> {
				assertThat(inner).isSameAs(outer);
				return "re-entered with token " + inner.fencingToken();
			});
		});
		assertThat(result).startsWith("re-entered");
		assertThat(LockContext.current()).isEmpty();
		assertThat(redis.endpoint().command("EXISTS", "lock:outer")).as("released by the outer call").isEqualTo(0L);
	}

	@Test
	void busyCallbackAnswersInsteadOfTheExceptionAndTheCallbackDoesNotRun() {
		try (LockHandle held = this.template.tryAcquire("busy", TTL, Duration.ZERO).orElseThrow()) {
			AtomicBoolean ran = new AtomicBoolean();
			String answer = this.template.execute(LockRequest.of("busy", TTL, Duration.ZERO), (lock) -> {
				ran.set(true);
				return "ran";
			}, (busy) -> "busy: " + busy.getKey());
			assertThat(answer).isEqualTo("busy: busy");
			assertThat(ran).isFalse();
		}
	}

	@Test
	void releaseFailureAfterACompletedActionIsLoggedAndTheResultReturned() {
		try (RedisServer server = RedisServer.start();
				LockStack stackOnServer = LockStack.on(server).withoutReleaseNotifier().withoutLeaseRenewer().build()) {
			LockTemplate template = stackOnServer.template();
			String result = template.execute("k", TTL, Duration.ZERO, () -> {
				server.stop();
				return "done";
			});
			assertThat(result).isEqualTo("done");
		}
	}

	@Test
	void releaseAfterExpiryLeavesTheNewOwnersLockAndIsCounted() throws Exception {
		LockHandle expired = this.template
			.tryAcquire(LockRequest.of("k", Duration.ofMillis(100), Duration.ZERO).withAutoRenew(false))
			.orElseThrow();
		Thread.sleep(200);
		try (LockHandle current = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			expired.close();
			assertThat(current.isHeld()).isTrue();
			assertThat(this.template.getEngine().getStatistics().getReleaseMismatches()).isEqualTo(1);
		}
	}

	@Test
	void autoRenewKeepsTheLockForThreeTimesItsTtlAgainstAnotherClient() throws Exception {
		Duration ttl = LockRequest.MIN_RENEWED_TTL;
		try (LockStack otherApplication = LockStack.on(redis.endpoint())
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.build(); LockHandle handle = this.template.tryAcquire("k", ttl, Duration.ZERO).orElseThrow()) {
			RedisLockClient other = otherApplication.client();
			long end = System.nanoTime() + ttl.multipliedBy(3).toNanos();
			while (System.nanoTime() < end) {
				assertThat(other.tryAcquire("lock:k", UUID.randomUUID().toString(), ttl))
					.isInstanceOf(AcquireResult.Busy.class);
				Thread.sleep(10);
			}
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(this.lost).isEmpty();
	}

	@Test
	void withoutAutoRenewTheLockExpiresAtItsTtl() {
		// A renewal (due at a third of the ttl) would move the expiry to 1333ms or later.
		LockRequest request = LockRequest.of("k", Duration.ofMillis(1000), Duration.ZERO).withAutoRenew(false);
		long start = System.nanoTime();
		LockHandle handle = this.template.tryAcquire(request).orElseThrow();
		RedisLockClient other = new RedisLockClient(this.stack.connectionFactory());
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> other.tryAcquire("lock:k", UUID.randomUUID().toString(),
					TTL) instanceof AcquireResult.Acquired);
		assertThat(System.nanoTime() - start).isBetween(TimeUnit.MILLISECONDS.toNanos(1000),
				TimeUnit.MILLISECONDS.toNanos(1000 + 300));
		assertThat(handle.isHeld()).isFalse();
	}

	@Test
	void deletedLockKeyIsDetectedAsLostAndReported() throws Exception {
		try (LockHandle handle = this.template.tryAcquire("k", LockRequest.MIN_RENEWED_TTL, Duration.ZERO)
			.orElseThrow()) {
			redis.endpoint().command("DEL", "lock:k");
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
			while (this.lost.isEmpty() && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
			assertThat(this.lost).containsExactly("k");
			assertThat(this.template.getEngine().getStatistics().getLost()).isEqualTo(1);
			redis.endpoint().command("SET", "lock:k", "someone else");
			assertThat(handle.isHeld()).isFalse();
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void interruptStopsTheWaitKeepsTheFlagAndLeavesNoWaiterBehind(boolean fair) throws Exception {
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			AtomicReference<Throwable> thrown = new AtomicReference<>();
			AtomicBoolean flagKept = new AtomicBoolean();
			Thread waiter = new Thread(() -> {
				try {
					this.template.tryAcquire(LockRequest.of("k", TTL, Duration.ofSeconds(30)).withFair(fair));
				}
				catch (Throwable ex) {
					thrown.set(ex);
					flagKept.set(Thread.currentThread().isInterrupted());
				}
			});
			waiter.start();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> LockSupport.getBlocker(waiter) instanceof LockWaiter.Waiter);
			long interruptedAt = System.nanoTime();
			waiter.interrupt();
			waiter.join(TimeUnit.SECONDS.toMillis(5));
			assertThat(System.nanoTime() - interruptedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(500));
			assertThat(thrown.get()).isInstanceOf(LockAcquisitionException.class)
				.hasCauseInstanceOf(InterruptedException.class);
			assertThat(flagKept).isTrue();
			assertThat(this.waiter.waiting()).isZero();
			assertThat(redis.endpoint()
				.command("EXISTS", "{lock:k}\u001fqueue\u001flock:k", "{lock:k}\u001fqueue-timeouts\u001flock:k"))
				.isEqualTo(0L);
		}
	}

	@Test
	void sixteenThreadsOnOneKeyNeverOverlapAndLoseNoUpdate() throws Exception {
		CriticalSections sections = CriticalSections.run(16, 40,
				(section) -> this.template.execute("counter", TTL, Duration.ofSeconds(30), () -> {
					section.run();
					return null;
				}));
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(16 * 40);
	}

}
