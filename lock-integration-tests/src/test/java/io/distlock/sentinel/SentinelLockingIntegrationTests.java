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

package io.distlock.sentinel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisSentinelGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locks through Redis Sentinel behave as on a single server: exclusive across two
 * applications, waiters woken by releases, fair order and renewal.
 */
class SentinelLockingIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofSeconds(20);

	private static final String QUEUE = "{lock:k}\u001fqueue\u001flock:k";

	private static RedisSentinelGroup group;

	private SentinelApplication first;

	private SentinelApplication second;

	@BeforeAll
	static void startGroup() {
		group = RedisSentinelGroup.start();
	}

	@AfterAll
	static void closeGroup() {
		group.close();
	}

	@BeforeEach
	void startApplications() {
		group.primary().flushAll();
		this.first = SentinelApplication.start(group, LONG_BACKOFF);
		this.second = SentinelApplication.start(group, LONG_BACKOFF);
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
	}

	@Test
	void locksAreTakenOnThePrimaryTheSentinelsName() {
		try (LockHandle handle = this.first.template().tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(group.primary().command("EXISTS", "lock:k")).isEqualTo(1L);
			assertThat(this.second.template().tryAcquire("k", TTL, Duration.ZERO)).isEmpty();
		}
		assertThat(group.primary().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void eightThreadsInTwoApplicationsNeverOverlap() throws Exception {
		List<LockTemplate> templates = List.of(this.first.template(), this.second.template());
		AtomicInteger calls = new AtomicInteger();
		CriticalSections sections = CriticalSections.run(8, 25, (section) -> templates.get(calls.getAndIncrement() % 2)
			.execute("counter", TTL, Duration.ofSeconds(30), () -> {
				section.run();
				return null;
			}));
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(200);
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void waiterInAnotherApplicationIsWokenByTheReleaseLongBeforeItsBackoff(boolean fair) throws Exception {
		LockHandle holder = this.first.template().tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Waiting waiting = Waiting.start(this.second.template(), LockRequest.of("k", TTL, LONG_BACKOFF).withFair(fair));
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(waiting.acquiredAfter(releasedAt, Duration.ofSeconds(10))).isLessThan(Duration.ofSeconds(5));
		waiting.handle().close();
	}

	@Test
	void fairWaitersOfBothApplicationsGetTheLockInArrivalOrder() throws Exception {
		LockHandle holder = this.first.template().tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		List<Integer> order = new CopyOnWriteArrayList<>();
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			int arrival = i;
			LockTemplate template = ((i % 2) == 0) ? this.first.template() : this.second.template();
			waiters.add(CompletableFuture.runAsync(() -> {
				LockRequest request = LockRequest.of("k", TTL, Duration.ofSeconds(30)).withFair(true);
				try (LockHandle handle = template.tryAcquire(request).orElseThrow()) {
					order.add(arrival);
				}
			}, (task) -> new Thread(task).start()));
			long queued = i + 1;
			await().atMost(Duration.ofSeconds(5)).until(() -> (Long) group.primary().command("LLEN", QUEUE) == queued);
		}
		holder.close();
		CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
		assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
	}

	@Test
	void lockWithAShortTtlIsRenewedWhileHeldFourTimesItsTtl() {
		Duration ttl = Duration.ofSeconds(1);
		try (LockHandle handle = this.first.template().tryAcquire("k", ttl, Duration.ZERO).orElseThrow()) {
			// Checked all along: the lease never lapsed on the primary.
			await().during(ttl.multipliedBy(4))
				.atMost(ttl.multipliedBy(6))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> (Long) group.primary().command("PTTL", "lock:k") > 0);
			assertThat(handle.isHeld()).isTrue();
			assertThat(this.second.template().tryAcquire("k", ttl, Duration.ZERO)).isEmpty();
		}
		assertThat(this.first.template().getEngine().getStatistics().getLost()).isZero();
	}

}
