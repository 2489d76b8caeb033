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
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.test.CriticalSections;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link LockTemplate#executeAsync(LockRequest, LockCallback)}
 * against a real redis-server: the lock is held until the work's stage completes.
 */
class LockTemplateAsyncIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ExecutorService workers = Executors.newFixedThreadPool(4);

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint()).withoutReleaseNotifier().build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() {
		this.workers.shutdownNow();
		this.stack.close();
	}

	@Test
	void secondCallerCannotEnterWhileTheFirstsAsyncWorkOutlastsTheTtl() throws Exception {
		Duration ttl = Duration.ofSeconds(1);
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicLong firstLeftAt = new AtomicLong();
		AtomicLong secondEnteredAt = new AtomicLong();
		AtomicReference<CompletableFuture<String>> first = new AtomicReference<>();
		// The first caller's thread ends as soon as the work started: renewal must go on.
		Thread caller = new Thread(() -> first.set(this.template.executeAsync(LockRequest.of("k", ttl, Duration.ZERO),
				(lock) -> CompletableFuture.supplyAsync(() -> {
					if (inside.incrementAndGet() != 1) {
						overlaps.incrementAndGet();
					}
					sleep(Duration.ofSeconds(3));
					firstLeftAt.set(System.nanoTime());
					inside.decrementAndGet();
					return "first";
				}, this.workers))));
		caller.start();
		caller.join();
		// Past the ttl, the lock is still held: it was renewed.
		await().pollDelay(ttl.multipliedBy(3).dividedBy(2)).atMost(Duration.ofSeconds(5)).until(() -> true);
		assertThat(first.get()).isNotDone();
		assertThat(this.template.tryAcquire("k", ttl, Duration.ZERO)).isEmpty();
		CompletableFuture<String> second = this.template.executeAsync(LockRequest.of("k", ttl, Duration.ofSeconds(30)),
				(lock) -> CompletableFuture.supplyAsync(() -> {
					secondEnteredAt.set(System.nanoTime());
					if (inside.incrementAndGet() != 1) {
						overlaps.incrementAndGet();
					}
					inside.decrementAndGet();
					return "second";
				}, this.workers));
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("second");
		assertThat(first.get().get(10, TimeUnit.SECONDS)).isEqualTo("first");
		assertThat(overlaps).hasValue(0);
		assertThat(secondEnteredAt.get()).isGreaterThan(firstLeftAt.get());
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void asyncSectionsOfManyCallersNeverOverlap() throws Exception {
		LockRequest request = LockRequest.of("k", Duration.ofSeconds(1), Duration.ofSeconds(60));
		CriticalSections sections = CriticalSections.run(4, 5,
				(section) -> this.template
					.executeAsync(request, (lock) -> CompletableFuture.runAsync(section, this.workers))
					.join());
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(20);
	}

	@Test
	void lockIsHeldUntilTheWorkCompletesNormallyThenReleased() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO),
				(lock) -> work);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(1L);
		assertThat(result).isNotDone();
		work.complete("done");
		assertThat(result).isCompletedWithValue("done");
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
		assertThat(this.stack.renewer().size()).isZero();
	}

	@Test
	void lockIsReleasedWhenTheWorkCompletesExceptionally() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO),
				(lock) -> work);
		work.completeExceptionally(new IllegalStateException("failed"));
		assertThatExceptionOfType(CompletionException.class).isThrownBy(result::join)
			.withCauseInstanceOf(IllegalStateException.class);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void cancellingTheReturnedStageCancelsTheWorkAndReleasesTheLock() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO),
				(lock) -> work);
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(1L);
		result.cancel(true);
		assertThat(work).isCancelled();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void lockIsReleasedWhenTheWorkIsCancelledByItsOwnCode() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO),
				(lock) -> work);
		work.cancel(false);
		assertThat(result).isCancelled();
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void busyLockFailsTheStageWithoutRunningTheAction() {
		AtomicBoolean ran = new AtomicBoolean();
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			CompletableFuture<String> result = this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO),
					(lock) -> {
						ran.set(true);
						return CompletableFuture.completedFuture("ran");
					});
			assertThatExceptionOfType(CompletionException.class).isThrownBy(result::join)
				.withCauseInstanceOf(LockAcquisitionException.class);
		}
		assertThat(ran).isFalse();
	}

	@Test
	void busyLockAnswersWithTheBusyCallbacksStage() {
		try (LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			CompletableFuture<String> result = this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO),
					(lock) -> CompletableFuture.completedFuture("ran"),
					(busy) -> CompletableFuture.completedFuture("busy: " + busy.getKey()));
			assertThat(result).isCompletedWithValue("busy: k");
		}
	}

	@Test
	void whenLostCancelsTheWorkOfALockWhoseKeyWasRemoved() {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = this.template
			.executeAsync(LockRequest.of("k", Duration.ofMillis(600), Duration.ZERO), (lock) -> {
				lock.whenLost().thenRun(() -> work.cancel(true));
				return work;
			});
		redis.endpoint().command("DEL", "lock:k");
		// The next renewal (after ttl/3) finds the key gone.
		await().atMost(Duration.ofSeconds(5)).until(result::isDone);
		assertThat(work).isCancelled();
		assertThat(result).isCancelled();
		assertThat(this.stack.renewer().size()).isZero();
	}

	@Test
	void lockIsBoundToTheCallingThreadOnlyWhileTheActionIsCalled() {
		AtomicReference<Optional<LockHandle>> duringCall = new AtomicReference<>();
		CompletableFuture<Optional<LockHandle>> inTheWork = this.template
			.executeAsync(LockRequest.of("k", TTL, Duration.ZERO), (lock) -> {
				duringCall.set(LockContext.current());
				return CompletableFuture.supplyAsync(LockContext::current, this.workers);
			});
		assertThat(duringCall.get()).isPresent();
		assertThat(inTheWork.join()).isEmpty();
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void actionThatThrowsBeforeReturningAStageReleasesTheLockAndRethrows() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.template.executeAsync(LockRequest.of("k", TTL, Duration.ZERO), (lock) -> {
				throw new IllegalStateException("no stage");
			}));
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("interrupted");
		}
	}

}
