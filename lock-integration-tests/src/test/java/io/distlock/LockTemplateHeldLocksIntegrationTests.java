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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link LockTemplate#getHeldLocks()} and
 * {@link LockTemplate#releaseHeldLocks()} on a real redis-server: what this instance
 * holds, and giving it all back.
 */
class LockTemplateHeldLocksIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint()).withoutReleaseNotifier().build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() {
		this.stack.close();
	}

	@Test
	void heldLocksDescribeEveryLockHeldUntilItIsReleased() {
		// Given: two locks, one named and renewed, one fixed-lease.
		LockHandle orders = this.template
			.tryAcquire(LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO).withName("orders"))
			.orElseThrow();
		LockHandle report = this.template
			.tryAcquire(LockRequest.of("report", Duration.ofSeconds(5), Duration.ZERO).withAutoRenew(false))
			.orElseThrow();

		// When
		List<HeldLock> held = this.template.getEngine().getHeldLocks();

		// Then
		assertThat(held).extracting(HeldLock::key).containsExactly("order:42", "report");
		HeldLock first = held.get(0);
		assertThat(first.name()).isEqualTo("orders");
		assertThat(first.fencingToken()).isEqualTo(orders.fencingToken());
		assertThat(first.holder()).isEqualTo(Thread.currentThread().getName());
		assertThat(first.autoRenew()).isTrue();
		assertThat(first.leaseRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10));
		assertThat(first.heldFor().isNegative()).isFalse();
		HeldLock second = held.get(1);
		assertThat(second.name()).isEmpty();
		assertThat(second.autoRenew()).isFalse();
		assertThat(second.leaseRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(5));
		orders.close();
		assertThat(this.template.getEngine().getHeldLocks()).extracting(HeldLock::key).containsExactly("report");
		report.close();
		assertThat(this.template.getEngine().getHeldLocks()).isEmpty();
	}

	@Test
	void lockOfRunningCodeIsListedWhileTheCodeRuns() throws Exception {
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		CompletableFuture<String> running = CompletableFuture.supplyAsync(
				() -> this.template.execute(LockRequest.of("job", Duration.ofSeconds(10), Duration.ZERO), (lock) -> {
					inside.countDown();
					awaitQuietly(finish);
					return "done";
				}));
		assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.template.getEngine().getHeldLocks()).singleElement()
			.satisfies((lock) -> assertThat(lock.holder()).isNotEqualTo(Thread.currentThread().getName()));
		finish.countDown();
		assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		assertThat(this.template.getEngine().getHeldLocks()).isEmpty();
	}

	@Test
	void releaseHeldLocksGivesBackLocksStillHeldByRunningCode() throws Exception {
		// Given: code holding a lock, still running.
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> this.template
			.execute(LockRequest.of("shutdown", Duration.ofSeconds(10), Duration.ZERO), (lock) -> {
				inside.countDown();
				awaitQuietly(finish);
				return "done";
			}));
		assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "lock:shutdown")).isEqualTo(1L);

		// When
		int released = this.template.getEngine().releaseHeldLocks();

		// Then: the lock is free at once, and no longer renewed.
		assertThat(released).isEqualTo(1);
		assertThat(redis.endpoint().command("EXISTS", "lock:shutdown")).isEqualTo(0L);
		assertThat(this.template.getEngine().getHeldLocks()).isEmpty();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.stack.renewer().size() == 0);
		// The code's own release later does nothing.
		finish.countDown();
		assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		assertThat(this.template.getEngine().getStatistics().getReleased()).isEqualTo(1);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
