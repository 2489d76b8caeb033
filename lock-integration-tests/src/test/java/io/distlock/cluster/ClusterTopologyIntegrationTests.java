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

package io.distlock.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.store.AcquireResult;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Proves that locks stay held and exclusive while their slot migrates, and work again
 * soon after a primary is killed and replaced by its replica.
 */
class ClusterTopologyIntegrationTests {

	private static final Duration TTL = Duration.ofMinutes(1);

	private static final char SEPARATOR = '\u001f';

	// Shorter than each half of the migration below: only renewals keep the lock.
	private static final Duration HELD_TTL = Duration.ofSeconds(1);

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);

	@Test
	void lockHeldWhileItsSlotMigratesStaysHeldAndLocksTakenAroundTheMigrationNeverOverlap() throws Exception {
		RedisCluster cluster = redis.cluster();
		String heldKey = "lock:{mig}held";
		int slot = RedisCluster.slot(heldKey);
		RedisServer source = cluster.primaryForSlot(slot);
		RedisServer target = cluster.primaries().stream().filter((p) -> !p.equals(source)).findFirst().orElseThrow();
		try (ClusterApplication holder = ClusterApplication.start(cluster);
				ClusterApplication first = ClusterApplication.start(cluster);
				ClusterApplication second = ClusterApplication.start(cluster)) {
			// Renewed every ~330 ms through the migration.
			LockHandle held = holder.template.tryAcquire("{mig}held", HELD_TTL, Duration.ZERO).orElseThrow();
			holder.template.tryAcquire("{mig}old", TTL, Duration.ZERO).orElseThrow().close();
			RedisCluster.SlotMigration migration = cluster.migrateSlot(slot, target);
			try {
				migrateWhileLocking(migration, holder, held, first, second);
			}
			finally {
				if (!cluster.primaryForSlot(slot).equals(target)) {
					migration.finish();
				}
			}
		}
	}

	@Test
	void lockReleasedAndLockWaitedForWhileTheirSlotMigratesAreReleasedAndTakenOnceItMoved() throws Exception {
		RedisCluster cluster = redis.cluster();
		int slot = RedisCluster.slot("lock:{moving}a");
		RedisServer source = cluster.primaryForSlot(slot);
		RedisServer target = cluster.primaries().stream().filter((p) -> !p.equals(source)).findFirst().orElseThrow();
		try (ClusterApplication application = ClusterApplication.start(cluster)) {
			LockHandle held = application.template.tryAcquire("{moving}a", TTL, Duration.ZERO).orElseThrow();
			application.template.tryAcquire("{moving}b", TTL, Duration.ZERO).orElseThrow().close();
			RedisCluster.SlotMigration migration = cluster.migrateSlot(slot, target);
			// Keys split between the nodes: every script on two of them answers TRYAGAIN
			// until the migration finishes, in 300 ms.
			assertThat(migration.moveKey("lock:{moving}a")).isTrue();
			CompletableFuture<Void> finished = CompletableFuture.runAsync(() -> {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
				migration.finish();
			});
			CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
				try (LockHandle handle = application.template.tryAcquire("{moving}b", TTL, Duration.ofSeconds(20))
					.orElseThrow()) {
					return handle.fencingToken();
				}
			});
			held.close();
			finished.get(10, TimeUnit.SECONDS);
			assertThat(target.command("EXISTS", "lock:{moving}a")).as("released").isEqualTo(0L);
			assertThat(waited.get(20, TimeUnit.SECONDS)).isPositive();
		}
	}

	private void migrateWhileLocking(RedisCluster.SlotMigration migration, ClusterApplication holder, LockHandle held,
			ClusterApplication first, ClusterApplication second) throws Exception {
		RedisCluster cluster = redis.cluster();
		String heldKey = "lock:{mig}held";
		// A lock used before the migration has a fencing counter on the source and no
		// lock key: its script's keys are split between the nodes until the counter
		// moves, which Redis answers with TRYAGAIN; a caller that does not wait is told.
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> holder.template.tryAcquire("{mig}old", TTL, Duration.ZERO))
			.withMessageContaining("TRYAGAIN");
		// Any lock script on a slot being migrated whose keys are not all on one node
		// is refused with TRYAGAIN (a free lock has no lock key, an unqueued one no
		// queue): waiting callers try again within their wait time, and must never
		// overlap.
		ClusterApplication[] applications = { first, second };
		AtomicInteger turn = new AtomicInteger();
		AtomicInteger sections = new AtomicInteger();
		List<Long> tokens = new ArrayList<>();
		CompletableFuture<CriticalSections> work = CompletableFuture.supplyAsync(() -> {
			try {
				return CriticalSections.run(4, 40, (section) -> {
					LockRequest request = LockRequest.of("{mig}work", Duration.ofSeconds(2), Duration.ofSeconds(30));
					try (LockHandle handle = applications[turn.getAndIncrement() % 2].template.tryAcquire(request)
						.orElseThrow()) {
						tokens.add(handle.fencingToken());
						section.run();
					}
					sections.incrementAndGet();
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, (task) -> new Thread(task).start());
		// The slot stays half-migrated for two of the held lock's ttls with its lock key
		// on the source, then for two more with it on the target, apart from its fencing
		// counter: each renewal in between must keep it.
		await().during(HELD_TTL.multipliedBy(2)).atMost(HELD_TTL.multipliedBy(5)).until(held::isHeld);
		assertThat(migration.moveKey(heldKey)).isTrue();
		await().during(HELD_TTL.multipliedBy(2)).atMost(HELD_TTL.multipliedBy(5)).until(held::isHeld);
		assertThat(migration.moveKey("{mig}" + SEPARATOR + "fence" + SEPARATOR + heldKey)).isTrue();
		assertThat(held.isHeld()).isTrue();
		int sectionsBeforeFinish = sections.get();
		migration.finish();
		System.out.printf("Slot migration: %d critical sections ran while it was under way%n", sectionsBeforeFinish);
		CriticalSections outcome = work.get(1, TimeUnit.MINUTES);
		assertThat(outcome.overlaps()).isZero();
		assertThat(outcome.count()).isEqualTo(160);
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		RedisServer target = migration.target();
		assertThat(cluster.primaryForSlot(migration.slot())).isEqualTo(target);
		assertThat(held.isHeld()).isTrue();
		assertThat(target.command("EXISTS", heldKey)).isEqualTo(1L);
		long heldToken = held.fencingToken();
		held.close();
		assertThat(target.command("EXISTS", heldKey)).isEqualTo(0L);
		try (LockHandle again = holder.template.tryAcquire("{mig}held", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(again.fencingToken()).isGreaterThan(heldToken);
		}
		holder.template.tryAcquire("{mig}old", TTL, Duration.ZERO).orElseThrow().close();
	}

	@Test
	void locksOfAKilledPrimarysSlotsWorkAgainSoonAfterItsReplicaTookOverAndALockHeldAcrossSurvives() throws Exception {
		RedisCluster cluster = redis.cluster();
		RedisServer primary = cluster.primaryForKey("lock:{fo}held");
		RedisServer replica = cluster.replicasOf(primary).get(0);
		try (ClusterApplication application = ClusterApplication.start(cluster);
				ClusterApplication waiting = ClusterApplication.start(cluster, new LockWaiter(Duration.ofSeconds(2)))) {
			LockHandle held = application.template.tryAcquire("{fo}held", TTL, Duration.ZERO).orElseThrow();
			long tokenBefore;
			try (LockHandle handle = application.template.tryAcquire("{fo}other", TTL, Duration.ZERO).orElseThrow()) {
				tokenBefore = handle.fencingToken();
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> replicaHas(replica, "lock:{fo}held"));
			LockHandle blocking = application.template.tryAcquire("{fo}waited", TTL, Duration.ZERO).orElseThrow();
			AtomicInteger waitFailures = new AtomicInteger();
			CompletableFuture<Long> waitedAt = CompletableFuture.supplyAsync(() -> {
				while (true) {
					// A wait fails when Redis does not answer; the caller tries again.
					try (LockHandle handle = waiting.template.tryAcquire("{fo}waited", TTL, Duration.ofSeconds(60))
						.orElseThrow()) {
						return System.nanoTime();
					}
					catch (LockBackendException ex) {
						waitFailures.incrementAndGet();
					}
				}
			}, (task) -> new Thread(task).start());
			await().atMost(Duration.ofSeconds(5)).until(() -> waiting.waiter.waiting() == 1);
			long killedAt = System.nanoTime();
			RedisServer promoted = cluster.killPrimaryAndAwaitFailover(primary);
			long promotedAt = System.nanoTime();
			assertThat(promoted).isEqualTo(replica);
			long[] tokenAfter = new long[1];
			await().atMost(Duration.ofSeconds(20)).ignoreExceptions().untilAsserted(() -> {
				try (LockHandle handle = application.template.tryAcquire("{fo}other", TTL, Duration.ZERO)
					.orElseThrow()) {
					tokenAfter[0] = handle.fencingToken();
				}
			});
			long recoveredAt = System.nanoTime();
			assertThat(tokenAfter[0]).isGreaterThan(tokenBefore);
			assertThat(held.isHeld()).as("lock held across the failover").isTrue();
			long releasedAt = System.nanoTime();
			blocking.close();
			long woken = waitedAt.get(20, TimeUnit.SECONDS);
			System.out.printf(
					"Failover: replica promoted %d ms after the kill; locks worked again %d ms after the promotion; "
							+ "a waiter got the released lock %d ms after the release, its wait failed %d time(s)%n",
					TimeUnit.NANOSECONDS.toMillis(promotedAt - killedAt),
					TimeUnit.NANOSECONDS.toMillis(recoveredAt - promotedAt),
					TimeUnit.NANOSECONDS.toMillis(woken - releasedAt), waitFailures.get());
			assertThat(woken - releasedAt).isLessThan(TimeUnit.SECONDS.toNanos(3));
			held.close();
			assertThat(promoted.command("EXISTS", "lock:{fo}held")).isEqualTo(0L);
		}
	}

	@Test
	void acquisitionIsAcknowledgedByTheReplicaOfItsSlotsPrimaryAndNotConfirmedWhileThatReplicaIsPaused() {
		RedisCluster cluster = redis.cluster();
		RedisServer primary = cluster.primaryForKey("lock:{ack}");
		RedisServer replica = cluster.replicasOf(primary).get(0);
		try (ClusterApplication application = ClusterApplication.withReplicaAcknowledgement(cluster, 1)) {
			assertThat(application.client.tryAcquire("lock:{ack}a", "owner", TTL))
				.isInstanceOf(AcquireResult.Acquired.class);
			assertThat(replicaHas(replica, "lock:{ack}a")).as("on the replica as tryAcquire returns").isTrue();
			replica.pause();
			try {
				assertThat(application.client.tryAcquire("lock:{ack}b", "owner", TTL)).isInstanceOfSatisfying(
						AcquireResult.NotConfirmed.class,
						(result) -> assertThat(result.reason()).contains("acknowledged by 0 of 1 replica(s)"));
				assertThat(primary.command("EXISTS", "lock:{ack}b")).as("given back").isEqualTo(0L);
			}
			finally {
				replica.resume();
			}
			assertThat(application.client.release("lock:{ack}a", "owner")).isTrue();
		}
	}

	private static boolean replicaHas(RedisServer replica, String key) {
		try (RespConnection connection = replica.connect(RespConnection.DEFAULT_TIMEOUT)) {
			connection.command("READONLY");
			return Long.valueOf(1).equals(connection.command("EXISTS", key));
		}
	}

}
