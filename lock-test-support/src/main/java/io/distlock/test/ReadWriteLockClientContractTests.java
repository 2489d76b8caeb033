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

package io.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.lease.Lease;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.AcquireResult;
import io.distlock.store.ReadWriteLockClient;
import io.distlock.store.Renewal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour every {@link ReadWriteLockClient} must have when its keys are held for
 * reading: a store with read/write locks runs this suite in a test class of its own,
 * beside its {@link LockClientContractTests} (or {@link FairLockClientContractTests}),
 * and returns its client, connected to a real store that is empty for each test.
 *
 * <pre class="code">
 * class MyReadWriteLockTests extends ReadWriteLockClientContractTests {
 *
 *     &#64;Override
 *     protected ReadWriteLockClient client() {
 *         return this.client;
 *     }
 *
 * }
 * </pre>
 *
 * <p>
 * It covers readers sharing a key and excluding the write lock (the lock of
 * {@code tryAcquire}), a waiting writer keeping new readers out while it keeps trying and
 * letting them in again when it stops or is done, owner-checked release, renewal and
 * checks of read holds by their key and owner token, and read holds that expire. A store
 * must let readers in again within {@link #WRITER_GIVE_UP_BOUND} of a writer's last
 * attempt. How the last reader's release wakes a waiting writer cannot be seen through
 * the SPI, so it is left to the store's own tests.
 */
public abstract class ReadWriteLockClientContractTests {

	/**
	 * How long after a waiting writer's last attempt a store lets readers in again, at
	 * most, for this suite.
	 */
	protected static final Duration WRITER_GIVE_UP_BOUND = Duration.ofSeconds(10);

	static final Duration TTL = Duration.ofSeconds(10);

	static final Duration SHORT_TTL = Duration.ofMillis(300);

	/**
	 * Return the client under test, connected to a store that is empty for each test.
	 * @return the client under test
	 */
	protected abstract ReadWriteLockClient client();

	@Test
	void manyReadersHoldTheKeyAtOnce() {
		List<String> readers = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			String reader = owner();
			assertThat(client().tryAcquireRead("k", reader, TTL)).isInstanceOf(AcquireResult.Acquired.class);
			readers.add(reader);
		}
		for (String reader : readers) {
			assertThat(client().isHeld("k", reader)).as(reader).isTrue();
		}
		assertThat(client().isHeld("k", owner())).isFalse();
	}

	@Test
	void readerKeepsTheWriteLockOutUntilItReleases() {
		String reader = owner();
		Duration readLease = Duration.ofSeconds(5);
		client().tryAcquireRead("k", reader, readLease);
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).as("no longer than the reader's lease")
					.isPositive()
					.isLessThanOrEqualTo(readLease));
		assertThat(client().releaseRead("k", reader)).isTrue();
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void writeLockKeepsReadersOutForItsRemainingLease() {
		String writer = owner();
		client().tryAcquire("k", writer, TTL);
		assertThat(client().tryAcquireRead("k", owner(), TTL)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isPositive().isLessThanOrEqualTo(TTL));
		assertThat(client().release("k", writer)).isTrue();
		assertThat(client().tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void readHoldIsNoWriteLockAndTheWriteLockIsNoReadHold() {
		String reader = owner();
		client().tryAcquireRead("k", reader, TTL);
		assertThat(client().release("k", reader)).as("release of a read hold as a write lock").isFalse();
		assertThat(client().isHeld("k", reader)).isTrue();
		assertThat(client().releaseRead("k", reader)).isTrue();
		String writer = owner();
		client().tryAcquire("k", writer, TTL);
		assertThat(client().releaseRead("k", writer)).as("release of the write lock as a read hold").isFalse();
		assertThat(client().isHeld("k", writer)).isTrue();
		assertThat(client().tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void readHoldsOfOneKeyLeaveTheWriteLockOfAnotherAlone() {
		client().tryAcquireRead("a", owner(), TTL);
		assertThat(client().tryAcquire("b", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquireRead("a", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void waitingWriterKeepsNewReadersOut() {
		client().tryAcquireRead("k", owner(), TTL);
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().tryAcquireRead("k", owner(), TTL)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isPositive());
	}

	@Test
	void waitingWriterKeepsNewReadersOutForAsLongAsItKeepsTrying() {
		client().tryAcquireRead("k", owner(), TTL);
		String writer = owner();
		// Longer than any store would keep readers out after a single attempt: only the
		// writer's coming back, when its busy answer told it to, keeps them out so long.
		long until = System.nanoTime() + WRITER_GIVE_UP_BOUND.toNanos() / 3;
		int attempts = 0;
		while (System.nanoTime() < until) {
			AcquireResult result = client().tryAcquire("k", writer, TTL);
			assertThat(result).isInstanceOf(AcquireResult.Busy.class);
			assertThat(client().tryAcquireRead("k", owner(), TTL)).as("a new reader after %d attempts", attempts)
				.isInstanceOf(AcquireResult.Busy.class);
			// A busy answer without a time to live: come back after the longest pause.
			Duration retry = ((AcquireResult.Busy) result).remainingTtl();
			long pause = (retry != null) ? Math.min(retry.toMillis(), 200) : 200;
			Polling.sleep(Duration.ofMillis(Math.max(1, pause)));
			attempts++;
		}
	}

	@Test
	void writerThatStopsTryingLetsReadersInAgain() {
		client().tryAcquireRead("k", owner(), TTL);
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		Polling.await(WRITER_GIVE_UP_BOUND, "a reader to get in after the writer gave up",
				() -> client().tryAcquireRead("k", owner(), TTL) instanceof AcquireResult.Acquired,
				() -> "readers are still kept out");
	}

	@Test
	void writerThatTookAndReleasedTheLockLetsReadersInAtOnce() {
		String reader = owner();
		String writer = owner();
		client().tryAcquireRead("k", reader, TTL);
		assertThat(client().tryAcquire("k", writer, TTL)).isInstanceOf(AcquireResult.Busy.class);
		client().releaseRead("k", reader);
		assertThat(client().tryAcquire("k", writer, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().release("k", writer)).isTrue();
		assertThat(client().tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void releaseReadIsOwnerChecked() {
		String reader = owner();
		client().tryAcquireRead("k", reader, TTL);
		assertThat(client().releaseRead("k", owner())).isFalse();
		assertThat(client().isHeld("k", reader)).isTrue();
		assertThat(client().tryAcquire("k", owner(), TTL)).as("still read").isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void releasingAReadHoldTwiceOrWithoutOneAnswersFalse() {
		String reader = owner();
		client().tryAcquireRead("k", reader, TTL);
		assertThat(client().releaseRead("k", reader)).isTrue();
		assertThat(client().releaseRead("k", reader)).isFalse();
		assertThat(client().releaseRead("k", owner())).isFalse();
		assertThat(client().releaseRead("never", owner())).isFalse();
	}

	@Test
	void releaseOfOneReaderLeavesTheOthersHolding() {
		String first = owner();
		String second = owner();
		client().tryAcquireRead("k", first, TTL);
		client().tryAcquireRead("k", second, TTL);
		assertThat(client().releaseRead("k", first)).isTrue();
		assertThat(client().isHeld("k", first)).isFalse();
		assertThat(client().isHeld("k", second)).isTrue();
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void expiredReadHoldNoLongerBlocksAWriter() {
		client().tryAcquireRead("k", owner(), SHORT_TTL);
		String writer = owner();
		assertThat(client().tryAcquire("k", writer, TTL)).isInstanceOf(AcquireResult.Busy.class);
		Polling.await(TTL, "the writer to get the lock once the read lease ran out",
				() -> client().tryAcquire("k", writer, TTL) instanceof AcquireResult.Acquired,
				() -> "the lock is still busy");
	}

	@Test
	void expiredReadHoldIsNotHeldAndCannotBeReleasedOrRenewed() throws Exception {
		String reader = owner();
		client().tryAcquireRead("k", reader, Duration.ofMillis(100));
		// Another reader keeps the key read, so that nothing but the lease tells the
		// expired hold apart.
		client().tryAcquireRead("k", owner(), TTL);
		Polling.await(TTL, "the read lease to run out", () -> !client().isHeld("k", reader), () -> "still held");
		assertThat(client().renew("k", reader, TTL)).isFalse();
		assertThat(client().isHeld("k", reader)).as("not brought back by the renewal").isFalse();
		assertThat(client().releaseRead("k", reader)).isFalse();
	}

	@Test
	void renewalKeepsAReadHoldPastItsTtlAndReleaseFreesIt() throws Exception {
		String reader = owner();
		client().tryAcquireRead("k", reader, SHORT_TTL);
		assertThat(client().renew("k", reader, TTL)).isTrue();
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld("k", reader)).isTrue();
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().releaseRead("k", reader)).isTrue();
		assertThat(client().isHeld("k", reader)).isFalse();
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void renewalOfAReadHoldByAnotherOwnerChangesNothing() throws Exception {
		String reader = owner();
		client().tryAcquireRead("k", reader, SHORT_TTL);
		assertThat(client().renew("k", owner(), TTL)).isFalse();
		Polling.await(TTL, "the read lease to run out", () -> !client().isHeld("k", reader), () -> "still held");
	}

	@Test
	void renewAllRenewsReadHoldsMixedWithExclusiveLeasesEachOnItsOwn() throws Exception {
		String reader = owner();
		String otherReader = owner();
		String writer = owner();
		String expired = owner();
		client().tryAcquireRead("r", reader, SHORT_TTL);
		client().tryAcquireRead("r", otherReader, SHORT_TTL);
		client().tryAcquire("w", writer, SHORT_TTL);
		client().tryAcquireRead("gone", expired, Duration.ofMillis(50));
		client().tryAcquireRead("gone", owner(), TTL);
		Polling.await(TTL, "the short read lease to run out", () -> !client().isHeld("gone", expired),
				() -> "still held");
		boolean[] renewed = client().renewAll(List.of(new Renewal("r", reader, TTL), new Renewal("w", writer, TTL),
				new Renewal("r", owner(), TTL), new Renewal("w", reader, TTL), new Renewal("gone", expired, TTL)));
		assertThat(renewed).containsExactly(true, true, false, false, false);
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld("r", reader)).as("renewed reader").isTrue();
		assertThat(client().isHeld("w", writer)).as("renewed writer").isTrue();
		assertThat(client().isHeld("r", otherReader)).as("reader left out of the batch").isFalse();
		assertThat(client().isHeld("gone", expired)).as("not recreated by a renewal").isFalse();
	}

	@Test
	void leaseRenewerKeepsAReadHoldAlive() throws Exception {
		String reader = owner();
		// Long enough for a renewal to be late now and then (the first one on a store's
		// node may have to load a script) without the hold running out.
		Duration lease = Duration.ofSeconds(1);
		try (LeaseRenewer renewer = new LeaseRenewer(client(), Duration.ofMinutes(1))) {
			client().tryAcquireRead("k", reader, lease);
			AtomicBoolean lost = new AtomicBoolean();
			Lease registered = renewer.register("k", reader, lease, () -> lost.set(true));
			Thread.sleep(lease.toMillis() * 3 / 2);
			assertThat(lost).isFalse();
			assertThat(client().isHeld("k", reader)).isTrue();
			registered.cancel();
			assertThat(client().releaseRead("k", reader)).isTrue();
		}
	}

	@Test
	void readersGetTokensOfTheirOwnOrderedWithTheWritersBeforeAndAfterThem() {
		long last = 0;
		for (int i = 0; i < 5; i++) {
			String writer = owner();
			long token = acquired(client().tryAcquire("k", writer, TTL));
			assertThat(token).as("writer's token").isGreaterThan(last);
			client().release("k", writer);
			String reader = owner();
			String otherReader = owner();
			long read = acquired(client().tryAcquireRead("k", reader, TTL));
			long otherRead = acquired(client().tryAcquireRead("k", otherReader, TTL));
			assertThat(read).as("reader's token").isGreaterThan(token);
			assertThat(otherRead).as("second reader's token").isGreaterThan(read);
			client().releaseRead("k", reader);
			client().releaseRead("k", otherReader);
			last = otherRead;
		}
	}

	@Test
	void readersAndWritersNeverOverlap() throws Exception {
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger writersInside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger writes = new AtomicInteger();
		AtomicInteger reads = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(10);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
		try {
			for (int i = 0; i < 10; i++) {
				boolean writer = i < 3;
				workers.add(threads.submit(() -> {
					start.await();
					while (System.nanoTime() < deadline) {
						String owner = owner();
						if (writer && client().tryAcquire("k", owner, TTL) instanceof AcquireResult.Acquired) {
							if (writersInside.incrementAndGet() > 1 || readersInside.get() > 0) {
								overlaps.incrementAndGet();
							}
							writes.incrementAndGet();
							Thread.sleep(5);
							writersInside.decrementAndGet();
							client().release("k", owner);
						}
						else if (!writer
								&& client().tryAcquireRead("k", owner, TTL) instanceof AcquireResult.Acquired) {
							readersInside.incrementAndGet();
							if (writersInside.get() > 0) {
								overlaps.incrementAndGet();
							}
							reads.incrementAndGet();
							Thread.sleep(5);
							readersInside.decrementAndGet();
							client().releaseRead("k", owner);
						}
						else {
							Thread.sleep(2);
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
		assertThat(writes.get()).isPositive();
		assertThat(reads.get()).isPositive();
	}

	/**
	 * Return a new owner token, unique like the ones the engine makes.
	 * @return a new owner token
	 */
	protected static String owner() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Return the fencing token of an acquire result that must have taken the lock or read
	 * hold.
	 * @param result the result
	 * @return its fencing token
	 */
	protected static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
