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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockSettings;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests, on a real redis-server, for the signal that the work under a lock
 * gets when the lock ends while the work still runs: released by someone other than the
 * work (cancellation of its stage, {@link LockTemplate#releaseHeldLocks()}), or found
 * lost while a lost-lock listener blocks.
 */
class LockLossSignalIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ExecutorService workers = Executors.newFixedThreadPool(4);

	// Holds the work (and blocking listeners) until the test lets them go.
	private final CountDownLatch finish = new CountDownLatch(1);

	private LockStack stack;

	@BeforeEach
	void createRenewer() {
		this.stack = LockStack.on(redis.endpoint()).withoutReleaseNotifier().build();
	}

	@AfterEach
	void destroyRenewer() {
		this.finish.countDown();
		this.workers.shutdownNow();
		this.stack.close();
	}

	@Test
	void cancellingTheCallersStageCompletesWhenLostOfTheWorkStillRunningBeforeTheLockIsReleased() throws Exception {
		LockTemplate template = template();
		CountDownLatch working = new CountDownLatch(1);
		AtomicReference<LockHandle> lock = new AtomicReference<>();
		CompletableFuture<Object> keyWhenSignalled = new CompletableFuture<>();
		CompletableFuture<String> result = template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO), (held) -> {
			lock.set(held);
			held.whenLost().thenRun(() -> keyWhenSignalled.complete(redis.endpoint().command("EXISTS", "lock:k")));
			// Cancelling a CompletableFuture does not stop the thread that runs its task.
			return CompletableFuture.supplyAsync(() -> {
				working.countDown();
				awaitFinish();
				return "done";
			}, this.workers);
		});
		assertThat(working.await(5, TimeUnit.SECONDS)).isTrue();

		result.cancel(true);

		assertThat(lock.get().whenLost().toCompletableFuture()).isCompleted();
		// Signalled while the lock was still held, so the work heard of it first.
		assertThat(keyWhenSignalled).isCompletedWithValue(1L);
		assertThat(lock.get().isHeld()).isFalse();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		assertThat(this.finish.getCount()).as("the work still runs").isOne();
	}

	@Test
	void forceReleaseOfALockThisTemplateHoldsCompletesItsWhenLostAtOnce() {
		LockTemplate template = template();
		try (LockHandle held = template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(template.getEngine().forceRelease("k")).isTrue();
			// Told at once, not at the next renewal (an hour away here).
			assertThat(held.whenLost().toCompletableFuture()).isCompleted();
			assertThat(held.isHeld()).isFalse();
		}
	}

	@Test
	void releaseHeldLocksCompletesWhenLostOfAsyncWorkStillRunning() throws Exception {
		LockTemplate template = template();
		CountDownLatch working = new CountDownLatch(1);
		AtomicReference<LockHandle> lock = new AtomicReference<>();
		CompletableFuture<String> result = template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO), (held) -> {
			lock.set(held);
			return CompletableFuture.supplyAsync(() -> {
				working.countDown();
				awaitFinish();
				return "done";
			}, this.workers);
		});
		assertThat(working.await(5, TimeUnit.SECONDS)).isTrue();

		assertThat(template.getEngine().releaseHeldLocks()).isOne();

		assertThat(lock.get().whenLost().toCompletableFuture()).isCompleted();
		assertThat(lock.get().isHeld()).isFalse();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		assertThat(result).isNotDone();
	}

	@Test
	void releaseHeldLocksCompletesWhenLostOfAThreadStillWorkingUnderTheLock() throws Exception {
		LockTemplate template = template();
		CountDownLatch working = new CountDownLatch(1);
		AtomicReference<LockHandle> lock = new AtomicReference<>();
		CompletableFuture<Void> work = CompletableFuture
			.runAsync(() -> template.execute("k", TTL, Duration.ZERO, () -> {
				lock.set(LockContext.current().orElseThrow());
				working.countDown();
				awaitFinish();
				return null;
			}), this.workers);
		assertThat(working.await(5, TimeUnit.SECONDS)).isTrue();

		assertThat(template.getEngine().releaseHeldLocks()).isOne();

		assertThat(lock.get().whenLost().toCompletableFuture()).isCompleted();
		assertThat(lock.get().isHeld()).isFalse();
		assertThat(work).isNotDone();
	}

	@Test
	void blockingLostListenerDelaysNeitherWhenLostNorIsHeldOfAnyLostLock() throws Exception {
		CountDownLatch listenerEntered = new CountDownLatch(1);
		LockTemplate template = template(new LockListener() {

			@Override
			public void onLost(LockEvent.Lost event) {
				listenerEntered.countDown();
				awaitFinish();
			}

		});
		Duration ttl = Duration.ofMillis(600);
		// More lost locks than there are listener threads, all blocked in the listener.
		List<LockHandle> locks = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			locks.add(template.tryAcquire("k" + i, ttl, Duration.ZERO).orElseThrow());
		}
		for (int i = 0; i < 4; i++) {
			redis.endpoint().command("DEL", "lock:k" + i);
		}
		assertThat(listenerEntered.await(5, TimeUnit.SECONDS)).isTrue();
		for (LockHandle lock : locks) {
			// The next renewal (after ttl/3) finds each key gone.
			await().atMost(Duration.ofSeconds(5)).until(() -> lock.whenLost().toCompletableFuture().isDone());
			assertThat(lock.isHeld()).isFalse();
		}
		assertThat(this.finish.getCount()).as("the listener still blocks").isOne();
		assertThat(template.getEngine().getStatistics().getLost()).isLessThan(4);
		this.finish.countDown();
		await().atMost(Duration.ofSeconds(5)).until(() -> template.getEngine().getStatistics().getLost() == 4);
		locks.forEach(LockHandle::close);
	}

	private LockTemplate template(LockListener... listeners) {
		return this.stack.template(LockSettings.builder().lockListeners(List.of(listeners)).build());
	}

	private void awaitFinish() {
		try {
			this.finish.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
