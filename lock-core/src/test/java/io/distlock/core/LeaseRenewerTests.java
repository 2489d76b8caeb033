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

package io.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeaseRenewer}: scheduling, batching and the decisions to stop, on a
 * {@link LockClient} that counts renewals instead of calling a store.
 */
class LeaseRenewerTests {

	private static final Duration TTL = Duration.ofMillis(300);

	private final CountingClient client = new CountingClient();

	private final LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1));

	private final AtomicInteger lost = new AtomicInteger();

	@AfterEach
	void closeRenewer() {
		this.renewer.close();
	}

	@Test
	void leasesAreRenewedEveryThirdOfTheirTtl() {
		long start = System.nanoTime();
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewals.get() >= 3);
		// Every third of the ttl, a little early (an eighth of it) to share batches.
		assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(3 * (100 - 13)));
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void firstRenewalIsTimedFromWhenTheAcquisitionWasSent() {
		// Sent one long round trip ago: the lease has run in Redis since then.
		long sentAt = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(90);
		Duration ttl = Duration.ofSeconds(3);
		long registeredAt = System.nanoTime();
		this.renewer.register("k", "owner", ttl, sentAt, this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> this.client.renewals.get() >= 1);
		// Due a third of the ttl after sending (1000ms, less the early slack), not after
		// the registration.
		assertThat(System.nanoTime() - registeredAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(1000 - 90 + 50));
	}

	@Test
	void leasesDueTogetherAreRenewedInOneBatch() {
		for (int i = 0; i < 500; i++) {
			this.renewer.register("k" + i, "owner", TTL, this.lost::incrementAndGet);
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewals.get() >= 500);
		assertThat(this.client.batches.get(0)).isEqualTo(500);
	}

	@Test
	void leaseDueSoonerThanTheSleepingRenewerExpectsIsRenewedInTime() {
		this.renewer.register("slow", "owner", Duration.ofMinutes(1), this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(this::renewerParked);
		long start = System.nanoTime();
		this.renewer.register("fast", "owner", TTL, this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewedKeys.contains("fast"));
		assertThat(System.nanoTime() - start).isLessThan(TTL.toNanos());
	}

	@Test
	void cancelledLeaseIsNoLongerRenewed() {
		LeaseRenewer.Lease lease = this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		lease.cancel();
		assertThat(this.renewer.size()).isZero();
		this.renewer.register("probe", "owner", TTL, this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewedKeys.contains("probe"));
		assertThat(this.client.renewedKeys).doesNotContain("k");
	}

	@Test
	void leaseFoundGoneIsReportedLostOnceAndNoLongerRenewed() {
		this.client.gone.add("k");
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.lost.get() == 1);
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void failingRenewalIsRetriedUntilTheLeaseRunsOutAndOnlyThenLost() {
		this.client.failures.set(Integer.MAX_VALUE);
		long start = System.nanoTime();
		AtomicLong lostAfter = new AtomicLong();
		this.renewer.register("k", "owner", TTL, () -> lostAfter.set(System.nanoTime() - start));
		await().atMost(Duration.ofSeconds(5)).until(() -> lostAfter.get() > 0);
		assertThat(lostAfter.get()).isBetween(TTL.toNanos(), TTL.toNanos() + TimeUnit.MILLISECONDS.toNanos(500));
		assertThat(this.client.attempts.get()).as("retried before giving up").isGreaterThan(2);
		assertThat(this.renewer.size()).isZero();
	}

	@Test
	void renewalThatFailsBrieflyKeepsTheLease() {
		this.client.failures.set(2);
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewals.get() >= 3);
		assertThat(this.lost).hasValue(0);
		assertThat(this.renewer.size()).isOne();
	}

	@Test
	void leaseOfAHolderThreadThatEndedIsNoLongerRenewed() throws Exception {
		Thread holder = new Thread(() -> this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet));
		holder.start();
		holder.join();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.renewer.size() == 0);
		assertThat(this.client.renewedKeys).doesNotContain("k");
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void leaseOfAnInterruptedHolderThreadIsNoLongerRenewed() throws Exception {
		CountDownLatch registered = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
			registered.countDown();
			// Stays alive, interrupted, until the test ends.
			Thread.currentThread().interrupt();
			while (done.getCount() > 0) {
				Thread.onSpinWait();
			}
		});
		holder.start();
		registered.await();
		try {
			await().atMost(Duration.ofSeconds(5)).until(() -> this.renewer.size() == 0);
			assertThat(this.client.renewedKeys).doesNotContain("k");
		}
		finally {
			done.countDown();
		}
	}

	@Test
	void leaseHeldLongerThanTheMaximumHoldTimeIsNoLongerRenewed() {
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofMillis(250))) {
			long start = System.nanoTime();
			renewer.register("k", "owner", Duration.ofMillis(150), this.lost::incrementAndGet);
			await().atMost(Duration.ofSeconds(5)).until(() -> renewer.size() == 0);
			assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(250));
			assertThat(this.client.renewals.get()).isPositive();
			assertThat(this.lost).hasValue(0);
		}
	}

	@Test
	void oneThreadRenewsAllLeases() {
		for (int i = 0; i < 100; i++) {
			this.renewer.register("k" + i, "owner", TTL, this.lost::incrementAndGet);
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> this.client.renewals.get() >= 100);
		assertThat(this.client.renewingThreads).hasSize(1);
	}

	@Test
	void registeringAfterCloseFailsWithTheKey() {
		this.renewer.close();
		assertThatIllegalStateException()
			.isThrownBy(() -> this.renewer.register("order:42", "owner", TTL, this.lost::incrementAndGet))
			.withMessageContaining("'order:42'");
	}

	private boolean renewerParked() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.anyMatch((thread) -> LockSupport.getBlocker(thread) == this.renewer);
	}

	/**
	 * A {@link LockClient} that only renews: it counts renewals and can fail or report
	 * locks gone.
	 */
	static final class CountingClient implements LockClient {

		final AtomicInteger renewals = new AtomicInteger();

		final AtomicInteger attempts = new AtomicInteger();

		final AtomicInteger failures = new AtomicInteger();

		final List<Integer> batches = new CopyOnWriteArrayList<>();

		final Set<String> renewedKeys = ConcurrentHashMap.newKeySet();

		final Set<String> gone = ConcurrentHashMap.newKeySet();

		final Set<Thread> renewingThreads = ConcurrentHashMap.newKeySet();

		@Override
		public boolean[] renewAll(List<Renewal> renewals) {
			this.renewingThreads.add(Thread.currentThread());
			this.attempts.incrementAndGet();
			if (this.failures.getAndDecrement() > 0) {
				throw new IllegalStateException("Redis is unreachable");
			}
			this.batches.add(renewals.size());
			boolean[] renewed = new boolean[renewals.size()];
			for (int i = 0; i < renewed.length; i++) {
				String key = renewals.get(i).key();
				renewed[i] = !this.gone.contains(key);
				this.renewedKeys.add(key);
			}
			this.renewals.addAndGet(renewed.length);
			return renewed;
		}

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean release(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

	}

}
