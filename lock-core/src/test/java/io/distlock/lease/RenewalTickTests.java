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

package io.distlock.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.distlock.store.Renewal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RenewalTick}: how often it looks at every lease.
 */
class RenewalTickTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	// Renewed every second; batched up to 125ms early.
	private static final Duration TTL = Duration.ofSeconds(3);

	private final ManualTaskScheduler scheduler = new ManualTaskScheduler(T0);

	private final LeaseRenewerTests.CountingClient client = new LeaseRenewerTests.CountingClient(
			this.scheduler.getClock());

	private final ScanCountingLeases leases = new ScanCountingLeases();

	private final AtomicInteger lost = new AtomicInteger();

	// Calls and lost callbacks run at once on the ticking thread.
	private final RenewalTick tick = new RenewalTick(this.client, this.scheduler.getClock(),
			new LeaseStopPolicy(Duration.ofHours(1)), this.leases, Runnable::run, new LostLeaseReporter(Runnable::run),
			this::wakeUp);

	private final RenewalTimer timer = new RenewalTimer(this.scheduler, this.tick::run);

	@AfterEach
	void stopTimer() {
		this.timer.stop();
	}

	@Test
	void answersOfABatchSplitIntoSeveralCallsAreAppliedWithoutScanningEveryLeaseAgain() {
		for (int i = 0; i < 1500; i++) {
			register("k" + i, T0);
		}
		this.scheduler.advance(Duration.ofMillis(1100));
		assertThat(this.client.batches).containsExactly(1000, 500);
		assertThat(this.client.renewalsOf("k1499")).containsExactly(at(1000));
		// One scan found them due; the run that applied the two answers looked at the
		// 1500 leases of the calls, not at the registry.
		assertThat(this.leases.scans).hasValue(1);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.batches).containsExactly(1000, 500, 1000, 500);
		assertThat(this.leases.scans).hasValue(2);
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void leaseRegisteredAfterAScanIsRenewedWhenDueThoughTheScanPlannedLater() {
		register("early", T0, TTL);
		this.scheduler.advance(Duration.ofMillis(1200));
		// The last scan planned the next one at 2000ms, when "early" is due again; this
		// lease is due at 1400ms and runs out at 1800ms.
		register("short", at(1200), Duration.ofMillis(600));
		this.scheduler.advance(Duration.ofMillis(1000));
		assertThat(this.client.renewalsOf("early")).containsExactly(at(1000), at(2000));
		assertThat(this.client.renewalsOf("short")).containsExactly(at(1400), at(1600), at(1800), at(2000), at(2200));
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void leaseWhoseRenewalFailedIsRetriedWithoutWaitingForThePlannedScan() {
		register("other", at(500));
		register("failing", T0);
		this.client.failures.set(1);
		this.scheduler.advance(Duration.ofMillis(1300));
		// Retried a quarter interval after the failed call, before "other" is due at
		// 1500ms.
		assertThat(this.client.renewalsOf("failing")).containsExactly(at(1250));
		assertThat(this.client.renewalsOf("other")).isEmpty();
		assertThat(this.lost).hasValue(0);
	}

	private void register(String key, Instant startedAt) {
		register(key, startedAt, TTL);
	}

	private void register(String key, Instant startedAt, Duration ttl) {
		Lease lease = new Lease(new Renewal(key, "owner", ttl), null, startedAt, this.lost::incrementAndGet,
				this.leases::remove);
		this.leases.add(lease);
		this.tick.registered();
		this.timer.runNoLaterThan(lease.schedule().dueAt());
	}

	private void wakeUp() {
		this.timer.runNow();
	}

	private static Instant at(long millis) {
		return T0.plusMillis(millis);
	}

	/**
	 * The registry of leases, counting how often it is scanned.
	 */
	private static final class ScanCountingLeases extends java.util.AbstractSet<Lease> {

		private final Set<Lease> leases = ConcurrentHashMap.newKeySet();

		private final AtomicInteger scans = new AtomicInteger();

		@Override
		public Iterator<Lease> iterator() {
			this.scans.incrementAndGet();
			return this.leases.iterator();
		}

		@Override
		public int size() {
			return this.leases.size();
		}

		@Override
		public boolean add(Lease lease) {
			return this.leases.add(lease);
		}

		// The tick calls remove and contains per lease: AbstractSet's would iterate, and
		// count as scans.
		@Override
		public boolean remove(Object lease) {
			return this.leases.remove(lease);
		}

		@Override
		public boolean contains(Object lease) {
			return this.leases.contains(lease);
		}

	}

}
