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

package io.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.store.AcquireResult;
import io.distlock.store.Renewal;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for the read holds of {@link RedisLockClient} against a real
 * redis-server, for what is particular to Redis: the names read holds and the writer's
 * marker are kept under, how long they live, the writer's wait timeout, and the release
 * messages. The read/write contract runs in {@link RedisStoreContractIntegrationTests}.
 */
class RedisReadWriteLockIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final String CHANNEL = RedisLockKeys.of("k").channel();

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void createClient() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
	}

	@AfterEach
	void destroyClient() {
		this.connectionFactory.destroy();
	}

	@Test
	void fairAcquisitionIsTheWriteLockToo() {
		String exclusive = owner();
		this.client.tryAcquire("k", exclusive, TTL);
		assertThat(this.client.tryAcquireFair("k", owner(), TTL, Duration.ZERO)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.client.release("k", exclusive)).isTrue();
		String reader = owner();
		this.client.tryAcquireRead("k", reader, TTL);
		assertThat(this.client.tryAcquireFair("k", owner(), TTL, Duration.ZERO)).as("kept out by the reader")
			.isInstanceOf(AcquireResult.Busy.class);
		this.client.releaseRead("k", reader);
		String fair = owner();
		assertThat(this.client.tryAcquireFair("k", fair, TTL, Duration.ZERO))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquireRead("k", owner(), TTL)).as("kept out by the fair writer")
			.isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void newReaderIsToldToComeBackWithinTheWaitingWritersTimeout() {
		this.client.tryAcquireRead("k", owner(), TTL);
		assertThat(this.client.tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		AcquireResult busy = this.client.tryAcquireRead("k", owner(), TTL);
		assertThat(busy).isInstanceOf(AcquireResult.Busy.class);
		assertThat(((AcquireResult.Busy) busy).remainingTtl()).isPositive()
			.isLessThanOrEqualTo(RedisLockClient.DEFAULT_WRITER_WAIT_TIMEOUT);
	}

	@Test
	void writerTakingTheLockRemovesItsWaitingMarker() {
		String reader = owner();
		String writer = owner();
		this.client.tryAcquireRead("k", reader, TTL);
		this.client.tryAcquire("k", writer, TTL);
		assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").writerWaiting())).isEqualTo(1L);
		this.client.releaseRead("k", reader);
		assertThat(this.client.tryAcquire("k", writer, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").writerWaiting())).isEqualTo(0L);
	}

	@Test
	void writerThatGaveUpWithdrawsOnlyItsOwnMarkerByReleasing() {
		String reader = owner();
		String gaveUp = owner();
		String stillWaiting = owner();
		this.client.tryAcquireRead("k", reader, TTL);
		this.client.tryAcquire("k", gaveUp, TTL);
		this.client.tryAcquire("k", stillWaiting, TTL);

		assertThat(this.client.release("k", gaveUp)).isFalse();
		assertThat(this.client.tryAcquireRead("k", owner(), TTL)).as("kept out by the writer still waiting")
			.isInstanceOf(AcquireResult.Busy.class);

		assertThat(this.client.release("k", stillWaiting)).isFalse();
		assertThat(this.client.tryAcquireRead("k", owner(), TTL)).as("no writer waits any more")
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.isHeld("k", reader)).isTrue();
	}

	@Test
	void renewAllExtendsTheReadHoldsSetAndTheLockKey() {
		String reader = owner();
		String writer = owner();
		this.client.tryAcquireRead("r", reader, Duration.ofSeconds(1));
		this.client.tryAcquire("w", writer, Duration.ofSeconds(1));
		assertThat(this.client.renewAll(List.of(new Renewal("r", reader, TTL), new Renewal("w", writer, TTL))))
			.containsExactly(true, true);
		assertThat((Long) redis.endpoint().command("PTTL", RedisLockKeys.of("r").readHolds())).isGreaterThan(20_000L);
		assertThat((Long) redis.endpoint().command("PTTL", "w")).isGreaterThan(20_000L);
	}

	@Test
	void releaseOfTheLastReadHoldLeavesNoSetBehind() {
		String reader = owner();
		this.client.tryAcquireRead("k", reader, TTL);
		assertThat(this.client.releaseRead("k", reader)).isTrue();
		assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").readHolds())).isEqualTo(0L);
	}

	@Test
	void writerThatStoppedWaitingLetsReadersInAgainAfterItsWaitTimeout() throws Exception {
		this.client.setWriterWaitTimeout(Duration.ofMillis(200));
		this.client.tryAcquireRead("k", owner(), TTL);
		AcquireResult busy = this.client.tryAcquire("k", owner(), TTL);
		assertThat(((AcquireResult.Busy) busy).remainingTtl()).isEqualTo(Duration.ofMillis(100));
		assertThat(this.client.tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		Thread.sleep(300);
		assertThat(this.client.tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void waitingWriterGetsTheLockWithinABoundDespiteAStreamOfOverlappingReaders() throws Exception {
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger writersInside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger reads = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService readers = Executors.newFixedThreadPool(8);
		try {
			for (int i = 0; i < 8; i++) {
				readers.submit(() -> {
					while (!stop.get()) {
						String reader = owner();
						if (this.client.tryAcquireRead("k", reader, TTL) instanceof AcquireResult.Acquired) {
							readersInside.incrementAndGet();
							if (writersInside.get() > 0) {
								overlaps.incrementAndGet();
							}
							reads.incrementAndGet();
							sleep(30);
							readersInside.decrementAndGet();
							this.client.releaseRead("k", reader);
						}
						else {
							sleep(5);
						}
					}
					return null;
				});
			}
			await(() -> readersInside.get() >= 2);
			int readsBefore = reads.get();
			String writer = owner();
			long start = System.nanoTime();
			AcquireResult result;
			while (!((result = this.client.tryAcquire("k", writer, TTL)) instanceof AcquireResult.Acquired)) {
				// As a waiter would: come back after the remaining time, or sooner.
				Duration remaining = ((AcquireResult.Busy) result).remainingTtl();
				Thread.sleep(Math.min(20, remaining.toMillis()));
			}
			long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			writersInside.incrementAndGet();
			if (readersInside.get() > 0) {
				overlaps.incrementAndGet();
			}
			Thread.sleep(50);
			writersInside.decrementAndGet();
			this.client.release("k", writer);
			assertThat(waited).as("writer's wait in ms").isLessThan(1000);
			await(() -> reads.get() > readsBefore + 8);
		}
		finally {
			stop.set(true);
			readers.shutdown();
			assertThat(readers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(overlaps).hasValue(0);
	}

	@Test
	void releaseOfTheLastReadHoldPublishesOnTheReleaseChannel() {
		String first = owner();
		String last = owner();
		this.client.tryAcquireRead("k", first, TTL);
		this.client.tryAcquireRead("k", last, TTL);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			assertThat(this.client.releaseRead("k", first)).isTrue();
			assertThat(this.client.releaseRead("k", last)).isTrue();
			assertThat(subscriber.read()).as("only the last release is published")
				.isEqualTo(List.of("message", CHANNEL, "k"));
		}
	}

	@Test
	void releaseOfAWriterThatAReaderFoundBusyIsPublished() {
		String writer = owner();
		assertThat(this.client.tryAcquire("k", writer, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			assertThat(this.client.release("k", writer)).isTrue();
			assertThat(subscriber.read()).isEqualTo(List.of("message", CHANNEL, "k"));
		}
	}

	@Test
	void readHoldsExpireWithTheirLatestLease() {
		this.client.tryAcquireRead("k", owner(), Duration.ofSeconds(5));
		this.client.tryAcquireRead("k", owner(), Duration.ofSeconds(10));
		this.client.tryAcquireRead("k", owner(), Duration.ofSeconds(1));
		assertThat((Long) redis.endpoint().command("PTTL", RedisLockKeys.of("k").readHolds())).isBetween(9_000L,
				10_000L);
	}

	@Test
	void plainExclusiveLockLeavesNoReadNamesBehind() {
		String writer = owner();
		this.client.tryAcquire("k", writer, TTL);
		this.client.tryAcquireRead("k", owner(), TTL);
		this.client.renew("k", writer, TTL);
		this.client.release("k", writer);
		RedisLockKeys keys = RedisLockKeys.of("k");
		assertThat(redis.endpoint().command("EXISTS", keys.readHolds(), keys.writerWaiting())).isEqualTo(0L);
	}

	private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("condition met in time").isLessThan(deadline);
			Thread.sleep(5);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
