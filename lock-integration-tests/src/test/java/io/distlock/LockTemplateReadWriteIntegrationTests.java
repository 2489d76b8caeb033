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
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for read/write locks through {@link LockTemplate}, by two
 * applications on one real Redis server: readers share a key, a writer holds it alone, a
 * waiting writer is not starved by readers, and read holds are renewed and recovered like
 * any lease.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockTemplateReadWriteIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private TemplateApplication first;

	private TemplateApplication second;

	@BeforeEach
	void startApplications() {
		this.first = TemplateApplication.start(redis.endpoint());
		this.second = TemplateApplication.start(redis.endpoint());
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
	}

	@Test
	void manyReadersOfTwoApplicationsHoldTheKeyAtOnce() throws Exception {
		int readers = 6;
		// Each reader waits inside for all the others: they meet only if all hold at
		// once.
		CountDownLatch allInside = new CountDownLatch(readers);
		ExecutorService threads = Executors.newFixedThreadPool(readers);
		try {
			List<Future<Boolean>> met = new ArrayList<>();
			for (int i = 0; i < readers; i++) {
				LockTemplate template = ((i % 2) == 0) ? this.first.template : this.second.template;
				met.add(threads.submit(() -> template.execute(read("report", Duration.ofSeconds(5)), (lock) -> {
					allInside.countDown();
					return allInside.await(10, TimeUnit.SECONDS);
				})));
			}
			for (Future<Boolean> reader : met) {
				assertThat(reader.get(20, TimeUnit.SECONDS)).as("met every other reader inside").isTrue();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(redis.endpoint().command("EXISTS", readHolds("report"))).as("read holds left behind").isEqualTo(0L);
	}

	@Test
	void writersExcludeReadersAndEachOtherUnderAMixedLoadFromTwoApplications() throws Exception {
		int threads = 8;
		int perThread = 25;
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger writersInside = new AtomicInteger();
		AtomicInteger violations = new AtomicInteger();
		AtomicInteger writes = new AtomicInteger();
		AtomicInteger writeCounter = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				LockTemplate template = ((t % 2) == 0) ? this.first.template : this.second.template;
				work.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						int dice = ThreadLocalRandom.current().nextInt(4);
						if (dice == 0) {
							// EXCLUSIVE and WRITE are the same lock: both kinds of
							// writers.
							LockMode mode = ThreadLocalRandom.current().nextBoolean() ? LockMode.WRITE
									: LockMode.EXCLUSIVE;
							template.execute(LockRequest.of("shared", TTL, Duration.ofSeconds(40)).withMode(mode),
									(lock) -> {
										if (writersInside.incrementAndGet() != 1 || readersInside.get() != 0) {
											violations.incrementAndGet();
										}
										// Loses updates unless writers are alone.
										int value = writeCounter.get();
										Thread.yield();
										writeCounter.set(value + 1);
										writes.incrementAndGet();
										writersInside.decrementAndGet();
										return null;
									});
						}
						else {
							template.execute(read("shared", Duration.ofSeconds(40)), (lock) -> {
								readersInside.incrementAndGet();
								if (writersInside.get() != 0) {
									violations.incrementAndGet();
								}
								Thread.sleep(1);
								readersInside.decrementAndGet();
								return null;
							});
						}
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(50, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(violations).as("a writer together with another holder").hasValue(0);
		assertThat(writeCounter).as("writes not lost").hasValue(writes.get());
		assertThat(writes.get()).as("writes").isPositive();
		assertThat(redis.endpoint().command("EXISTS", "lock:shared", readHolds("shared"))).as("locks left behind")
			.isEqualTo(0L);
	}

	@Test
	void waitingWriterIsNotStarvedByAStreamOfOverlappingReaders() throws Exception {
		AtomicBoolean stop = new AtomicBoolean();
		AtomicBoolean writerWaiting = new AtomicBoolean();
		AtomicBoolean writerHolds = new AtomicBoolean();
		AtomicBoolean writerDone = new AtomicBoolean();
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger readsWhileWriterWaited = new AtomicInteger();
		AtomicInteger readsAfterWriter = new AtomicInteger();
		AtomicInteger violations = new AtomicInteger();
		int readers = 6;
		ExecutorService threads = Executors.newFixedThreadPool(readers);
		List<Future<?>> stream = new ArrayList<>();
		try {
			for (int i = 0; i < readers; i++) {
				LockTemplate template = ((i % 2) == 0) ? this.first.template : this.second.template;
				stream.add(threads.submit(() -> {
					while (!stop.get()) {
						if (writerWaiting.get()) {
							readsWhileWriterWaited.incrementAndGet();
						}
						template.execute(read("report", Duration.ofSeconds(20)), (lock) -> {
							readersInside.incrementAndGet();
							if (writerHolds.get()) {
								violations.incrementAndGet();
							}
							// Readers overlap, so the key is never free of readers by
							// itself.
							Thread.sleep(ThreadLocalRandom.current().nextInt(20, 60));
							readersInside.decrementAndGet();
							if (writerDone.get()) {
								readsAfterWriter.incrementAndGet();
							}
							return null;
						});
					}
					return null;
				}));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> readersInside.get() >= 2);
			writerWaiting.set(true);
			Optional<LockHandle> writer = this.first.template
				.tryAcquire(LockRequest.of("report", TTL, Duration.ofSeconds(10)).withMode(LockMode.WRITE));
			assertThat(writer).as("writer got the key within its wait").isPresent();
			writerHolds.set(true);
			writerWaiting.set(false);
			assertThat(readersInside).as("readers inside with the writer").hasValue(0);
			assertThat(readsWhileWriterWaited.get()).as("readers kept coming while the writer waited").isPositive();
			writerHolds.set(false);
			writer.get().close();
			writerDone.set(true);
			await().atMost(Duration.ofSeconds(10)).until(() -> readsAfterWriter.get() > 0);
			stop.set(true);
			for (Future<?> reader : stream) {
				reader.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			stop.set(true);
			threads.shutdownNow();
		}
		assertThat(violations).as("readers inside with the writer").hasValue(0);
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, 100 })
	void writerThatGaveUpKeepsNoNewReaderOut(long waitMillis) {
		try (LockHandle reader = this.first.template.tryAcquire(read("gave-up", Duration.ZERO)).orElseThrow()) {
			assertThat(this.second.template
				.tryAcquire(LockRequest.of("gave-up", TTL, Duration.ofMillis(waitMillis)).withMode(LockMode.WRITE)))
				.isEmpty();
			// No writer waits for the key any more: another reader may share it. The
			// writer withdraws in the background, and the withdrawal wakes this reader;
			// its wait is half the marker's life, so only the withdrawal lets it in.
			Optional<LockHandle> other = this.second.template
				.tryAcquire(read("gave-up", RedisLockClient.DEFAULT_WRITER_WAIT_TIMEOUT.dividedBy(2)));
			other.ifPresent(LockHandle::close);
			assertThat(other).isPresent();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "EXCLUSIVE", "WRITE" })
	void exclusiveAndWriteOnTheSameKeyAreOneLockThatExcludesReaders(LockMode held) {
		LockMode other = (held == LockMode.WRITE) ? LockMode.EXCLUSIVE : LockMode.WRITE;
		try (LockHandle holder = this.first.template.tryAcquire(LockRequest.of("k", TTL, Duration.ZERO).withMode(held))
			.orElseThrow()) {
			assertThat(this.second.template.tryAcquire(LockRequest.of("k", TTL, Duration.ZERO).withMode(other)))
				.isEmpty();
			assertThat(this.second.template.tryAcquire(LockRequest.of("k", TTL, Duration.ZERO).withMode(held)))
				.isEmpty();
			assertThat(this.second.template.tryAcquire(read("k", Duration.ZERO))).isEmpty();
			assertThat(holder.isHeld()).isTrue();
		}
		try (LockHandle next = this.second.template.tryAcquire(LockRequest.of("k", TTL, Duration.ZERO).withMode(other))
			.orElseThrow()) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void fencingTokensIncreaseAcrossWritersAndReadersAlike() {
		long written;
		try (LockHandle writer = this.first.template
			.tryAcquire(LockRequest.of("t", TTL, Duration.ZERO).withMode(LockMode.WRITE))
			.orElseThrow()) {
			written = writer.fencingToken();
		}
		long read;
		try (LockHandle reader = this.second.template.tryAcquire(read("t", Duration.ZERO)).orElseThrow()) {
			read = reader.fencingToken();
			assertThat(read).isGreaterThan(written);
		}
		try (LockHandle writer = this.second.template
			.tryAcquire(LockRequest.of("t", TTL, Duration.ZERO).withMode(LockMode.EXCLUSIVE))
			.orElseThrow()) {
			assertThat(writer.fencingToken()).isGreaterThan(read);
		}
	}

	@Test
	void readHoldIsRenewedPastItsTtlWhileHeldAndKeepsWritersOut() {
		try (LockHandle reader = this.first.template
			.tryAcquire(LockRequest.of("renewed", LockRequest.MIN_RENEWED_TTL, Duration.ZERO).withMode(LockMode.READ))
			.orElseThrow()) {
			await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(reader::isHeld);
			assertThat(this.second.template
				.tryAcquire(LockRequest.of("renewed", TTL, Duration.ZERO).withMode(LockMode.WRITE))).isEmpty();
			assertThat((Long) redis.endpoint().command("PTTL", readHolds("renewed"))).isBetween(1L,
					LockRequest.MIN_RENEWED_TTL.toMillis());
		}
		assertThat(redis.endpoint().command("EXISTS", readHolds("renewed"))).isEqualTo(0L);
		this.second.template.tryAcquire(LockRequest.of("renewed", TTL, Duration.ZERO).withMode(LockMode.WRITE))
			.orElseThrow()
			.close();
		assertThat(this.first.renewer.size()).isZero();
	}

	@Test
	void readHoldWhoseHolderStopsRenewingWithoutReleasingIsRecoveredAfterItsTtl() {
		LockHandle abandoned = this.first.template
			.tryAcquire(LockRequest.of("crashed", Duration.ofMillis(300), Duration.ZERO)
				.withMode(LockMode.READ)
				.withAutoRenew(false))
			.orElseThrow();
		// Never closed, as by a holder that was killed.
		assertThat(
				this.second.template.tryAcquire(LockRequest.of("crashed", TTL, Duration.ZERO).withMode(LockMode.WRITE)))
			.isEmpty();
		try (LockHandle writer = this.second.template
			.tryAcquire(LockRequest.of("crashed", TTL, Duration.ofSeconds(10)).withMode(LockMode.WRITE))
			.orElseThrow()) {
			assertThat(abandoned.isHeld()).isFalse();
			assertThat(writer.isHeld()).isTrue();
		}
	}

	@Test
	void readHoldOfAKilledApplicationIsRecoveredAfterItsTtl() {
		TemplateApplication killed = TemplateApplication.start(redis.endpoint());
		killed.template
			.tryAcquire(LockRequest.of("killed", Duration.ofMillis(500), Duration.ZERO).withMode(LockMode.READ))
			.orElseThrow();
		// Its renewer stops and its connections close, and nothing is released.
		killed.close();
		assertThat(redis.endpoint().command("EXISTS", readHolds("killed"))).isEqualTo(1L);
		try (LockHandle writer = this.second.template
			.tryAcquire(LockRequest.of("killed", TTL, Duration.ofSeconds(10)).withMode(LockMode.WRITE))
			.orElseThrow()) {
			assertThat(writer.isHeld()).isTrue();
		}
	}

	@Test
	void readInsideWriteOfTheSameKeyReentersTheWriteLock() {
		this.first.template.execute(LockRequest.of("n", TTL, Duration.ZERO).withMode(LockMode.WRITE), (outer) -> {
			this.first.template.execute(read("n", Duration.ZERO), (inner) -> {
				assertThat(inner).isSameAs(outer);
				assertThat(LockContext.held()).containsExactly(outer);
				return null;
			});
			assertThat(outer.isHeld()).isTrue();
			assertThat(this.second.template.tryAcquire(read("n", Duration.ZERO))).isEmpty();
			return null;
		});
		assertThat(redis.endpoint().command("EXISTS", "lock:n")).isEqualTo(0L);
	}

	@ParameterizedTest
	@EnumSource(names = { "EXCLUSIVE", "WRITE" })
	void writeInsideReadOfTheSameKeyFailsNamingBothModesWithoutRunning(LockMode nested) {
		AtomicBoolean ran = new AtomicBoolean();
		this.first.template.execute(read("n", Duration.ZERO), (outer) -> {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> this.first.template
				.execute(LockRequest.of("n", TTL, Duration.ofSeconds(5)).withMode(nested), (inner) -> {
					ran.set(true);
					return null;
				}))
				.withMessageContaining(nested.name())
				.withMessageContaining("READ")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("n"));
			assertThat(outer.isHeld()).isTrue();
			return null;
		});
		assertThat(ran).isFalse();
		assertThat(redis.endpoint().command("EXISTS", readHolds("n"), "lock:n")).isEqualTo(0L);
	}

	private static LockRequest read(String key, Duration waitTime) {
		return LockRequest.of(key, TTL, waitTime).withMode(LockMode.READ);
	}

	private static String readHolds(String key) {
		return "{lock:" + key + "}\u001fread-holds\u001flock:" + key;
	}

}
