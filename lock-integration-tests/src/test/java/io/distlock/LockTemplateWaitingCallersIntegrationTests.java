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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for the waiting callers of {@link LockTemplate#getWaitingLocks()} and
 * {@link WaitingLocks} against a real redis-server: callers waiting for a lock that
 * another application holds are listed with their key, name and thread while they wait,
 * counted by name, and gone once they have it; a caller that does not wait is never
 * listed.
 */
@Timeout(60)
class LockTemplateWaitingCallersIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack stack;

	private LockStack otherStack;

	private final ExecutorService threads = Executors.newFixedThreadPool(3, (task) -> {
		Thread thread = new Thread(task);
		thread.setName("report-worker-" + thread.getId());
		return thread;
	});

	@BeforeEach
	void createApplications() {
		this.stack = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.otherStack = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
	}

	@AfterEach
	void closeApplications() {
		this.threads.shutdownNow();
		this.stack.close();
		this.otherStack.close();
	}

	@Test
	void callersWaitingForABusyLockAreListedAndCountedByNameUntilTheyHaveIt() throws Exception {
		LockTemplate template = this.stack.template();
		LockRequest request = LockRequest.of("report:7", TTL, Duration.ofSeconds(30)).withName("reports");
		LockHandle held = this.otherStack.template().tryAcquire(request).orElseThrow();
		List<Future<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			waiters.add(this.threads.submit(() -> template.execute(request, () -> true)));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> template.getEngine().getWaitingCount("reports") == 2);
		assertThat(template.getEngine().getWaitingLocks()).hasSize(2).allSatisfy((waiting) -> {
			assertThat(waiting.key()).isEqualTo("report:7");
			assertThat(waiting.name()).isEqualTo("reports");
			assertThat(waiting.thread()).startsWith("report-worker-");
			assertThat(waiting.waitingFor()).isPositive();
		});
		Thread.sleep(100);
		held.close();
		for (Future<Boolean> waiter : waiters) {
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(template.getEngine().getWaitingCount("reports")).isZero();
		assertThat(template.getEngine().getWaitingLocks()).isEmpty();
		assertThat(template.getEngine().getMostWaitedOnLocks(10)).singleElement().satisfies((row) -> {
			assertThat(row.name()).isEqualTo("reports");
			assertThat(row.waitingNow()).isZero();
			assertThat(row.waits()).isEqualTo(2);
			assertThat(row.totalWait()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		});
	}

	@Test
	void callerThatDoesNotWaitIsNeverListed() {
		LockTemplate template = this.stack.template();
		try (LockHandle held = this.otherStack.template().tryAcquire("busy", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(template.tryAcquire("busy", TTL, Duration.ZERO)).isEmpty();
			assertThat(template.execute("free", TTL, Duration.ZERO, () -> template.getEngine().getWaitingLocks()))
				.isEmpty();
		}
		assertThat(template.getEngine().getMostWaitedOnLocks(10)).isEmpty();
	}

	@Test
	void callerThatGivesUpAtItsWaitTimeIsNoLongerListed() {
		LockTemplate template = this.stack.template();
		try (LockHandle held = this.otherStack.template().tryAcquire("slow", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(template.tryAcquire("slow", TTL, Duration.ofMillis(300))).isEmpty();
			assertThat(template.getEngine().getWaitingLocks()).isEmpty();
			assertThat(template.getEngine().getWaitingCount("")).isZero();
			assertThat(template.getEngine().getMostWaitedOnLocks(10)).singleElement()
				.satisfies((row) -> assertThat(row.waits()).isOne());
		}
	}

}
