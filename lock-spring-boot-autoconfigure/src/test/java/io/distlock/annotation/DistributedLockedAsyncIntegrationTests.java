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

package io.distlock.annotation;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockAcquisitionException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link DistributedLocked} methods returning a
 * {@link CompletableFuture} or {@link CompletionStage}, on a real redis-server: the lock
 * is held until the returned stage completes.
 */
@SpringBootTest(classes = DistributedLockedAsyncIntegrationTests.TestApplication.class)
@DirtiesContext
class DistributedLockedAsyncIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static final ExecutorService workers = Executors.newFixedThreadPool(4);

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		registry.add("spring.data.redis.timeout", () -> "2s");
	}

	@AfterAll
	static void stopWorkers() {
		workers.shutdownNow();
	}

	@Autowired
	private ReportService reports;

	@Autowired
	private LockTemplate lockTemplate;

	@Test
	void secondCallerCannotEnterWhileTheFirstsAsyncWorkOutlastsTheTtl() throws Exception {
		AtomicReference<CompletableFuture<String>> first = new AtomicReference<>();
		// The first caller's thread ends as soon as the method returned: renewal must go
		// on.
		Thread caller = new Thread(() -> first.set(this.reports.render("first", Duration.ofSeconds(3))));
		caller.start();
		caller.join();
		// Past the ttl of 1s, the lock is still held: it was renewed.
		await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
		assertThat(first.get()).isNotDone();
		assertThat(redis.endpoint().command("EXISTS", "lock:report")).isEqualTo(1L);
		// Waits (on this thread) until the first one's work completed.
		CompletableFuture<String> second = this.reports.render("second", Duration.ZERO);
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("second");
		assertThat(first.get().get(10, TimeUnit.SECONDS)).isEqualTo("first");
		assertThat(ReportService.overlaps).hasValue(0);
		assertThat(ReportService.enteredAt.get("second")).isGreaterThan(ReportService.leftAt.get("first"));
		assertThat(redis.endpoint().command("EXISTS", "lock:report")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheReturnedFutureCompletesNormally() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.reports.pending("normal", work);
		assertThat(redis.endpoint().command("EXISTS", "lock:normal")).isEqualTo(1L);
		work.complete("done");
		assertThat(result).isCompletedWithValue("done");
		assertThat(redis.endpoint().command("EXISTS", "lock:normal")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheReturnedStageCompletesExceptionally() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletionStage<String> result = this.reports.stage("failing", work);
		assertThat(redis.endpoint().command("EXISTS", "lock:failing")).isEqualTo(1L);
		work.completeExceptionally(new IllegalStateException("failed"));
		assertThatExceptionOfType(CompletionException.class).isThrownBy(result.toCompletableFuture()::join)
			.withCauseInstanceOf(IllegalStateException.class);
		assertThat(redis.endpoint().command("EXISTS", "lock:failing")).isEqualTo(0L);
	}

	@Test
	void cancellingTheReturnedFutureCancelsTheMethodsFutureAndReleasesTheLock() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.reports.pending("cancelled", work);
		result.cancel(true);
		assertThat(work).isCancelled();
		assertThat(redis.endpoint().command("EXISTS", "lock:cancelled")).isEqualTo(0L);
	}

	@Test
	void busyLockWithThrowGivesAFailedStageInsteadOfThrowing() {
		CompletableFuture<String> work = CompletableFuture.completedFuture("ran");
		try (LockHandle holder = this.lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			CompletableFuture<String> result = this.reports.pending("busy", work);
			assertThatExceptionOfType(CompletionException.class).isThrownBy(result::join)
				.withCauseInstanceOf(LockAcquisitionException.class);
		}
		assertThat(ReportService.pendingCalls).doesNotContainKey("busy");
	}

	@Test
	void busyLockWithSkipGivesAStageCompletedWithNull() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("skipped", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.reports.skipIfBusy("skipped")).isCompletedWithValue(null);
		}
	}

	@Test
	void busyLockWithAFallbackGivesTheFallbacksStage() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("fallback", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.reports.withFallback("fallback")).isCompletedWithValue("fallback for fallback");
		}
		assertThat(this.reports.withFallback("fallback")).isCompletedWithValue("locked fallback");
	}

	@Test
	void whenLostOfTheBoundLockCancelsTheMethodsWork() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.reports.cancelledWhenLost("lost", work);
		redis.endpoint().command("DEL", "lock:lost");
		// The next renewal (after ttl/3) finds the key gone.
		await().atMost(Duration.ofSeconds(5)).until(result::isDone);
		assertThat(work).isCancelled();
		assertThatExceptionOfType(CancellationException.class).isThrownBy(result::join);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		ReportService reportService() {
			return new ReportService();
		}

	}

	static class ReportService {

		// Static: the test reads them through the bean, a CGLIB proxy whose own fields
		// stay unset.
		static final AtomicInteger inside = new AtomicInteger();

		static final AtomicInteger overlaps = new AtomicInteger();

		static final Map<String, Integer> pendingCalls = new ConcurrentHashMap<>();

		static final Map<String, Long> enteredAt = new ConcurrentHashMap<>();

		static final Map<String, Long> leftAt = new ConcurrentHashMap<>();

		@DistributedLocked(key = "report", ttl = "1s", waitTime = "30s")
		public CompletableFuture<String> render(String name, Duration work) {
			return CompletableFuture.supplyAsync(() -> {
				enteredAt.put(name, System.nanoTime());
				if (inside.incrementAndGet() != 1) {
					overlaps.incrementAndGet();
				}
				try {
					Thread.sleep(work.toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				leftAt.put(name, System.nanoTime());
				inside.decrementAndGet();
				return name;
			}, workers);
		}

		@DistributedLocked(key = "#id")
		public CompletableFuture<String> pending(String id, CompletableFuture<String> work) {
			pendingCalls.merge(id, 1, Integer::sum);
			return work;
		}

		@DistributedLocked(key = "#id")
		public CompletionStage<String> stage(String id, CompletableFuture<String> work) {
			return work;
		}

		@DistributedLocked(key = "#id", onFailure = LockFailurePolicy.SKIP)
		public CompletableFuture<String> skipIfBusy(String id) {
			return CompletableFuture.completedFuture("ran");
		}

		@DistributedLocked(key = "#id", fallbackMethod = "busy")
		public CompletableFuture<String> withFallback(String id) {
			return CompletableFuture.completedFuture("locked " + id);
		}

		public CompletableFuture<String> busy(String id) {
			return CompletableFuture.completedFuture("fallback for " + id);
		}

		@DistributedLocked(key = "#id", ttl = "600ms")
		public CompletableFuture<String> cancelledWhenLost(String id, CompletableFuture<String> work) {
			// The lock is bound to the calling thread while the method runs.
			LockContext.current().orElseThrow().whenLost().thenRun(() -> work.cancel(true));
			return work;
		}

	}

}
