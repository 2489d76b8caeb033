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
import java.util.List;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.Renewal;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that a lock of every kind is renewed, checked and released while its slot is
 * held half-migrated between two primaries: each call passes only keys that exist for the
 * kind, so Redis runs it on whichever node holds them instead of answering
 * {@code TRYAGAIN}. Each step is one call on a slot that stays
 * {@code MIGRATING}/{@code IMPORTING} until the test finishes it, so nothing depends on
 * how long the migration takes.
 */
class ClusterSlotMigrationIntegrationTests {

	private static final Duration SHORT = Duration.ofSeconds(10);

	private static final Duration LONG = Duration.ofMinutes(5);

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 0);

	private ClusterApplication application;

	private RedisCluster.SlotMigration migration;

	@AfterEach
	void finishMigrationAndClose() {
		if (this.migration != null
				&& !redis.cluster().primaryForSlot(this.migration.slot()).equals(this.migration.target())) {
			this.migration.finish();
		}
		if (this.application != null) {
			this.application.close();
		}
	}

	@Test
	void exclusiveLockIsRenewedCheckedAndReleasedOnEitherNodeWhileItsSlotMigrates() {
		RedisLockClient client = start();
		assertThat(client.tryAcquire("lock:{sm-x}a", "owner-a", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquire("lock:{sm-x}b", "owner-b", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		RedisServer source = migrate("lock:{sm-x}a");
		RedisServer target = this.migration.target();
		assertThat(client.renew("lock:{sm-x}a", "owner-a", LONG)).isTrue();
		assertThat(pttl(source, "lock:{sm-x}a")).isGreaterThan(SHORT.toMillis());
		assertThat(client.isHeld("lock:{sm-x}a", "owner-a")).isTrue();
		assertThat(this.migration.moveKey("lock:{sm-x}a")).isTrue();
		// Now the lock key of a is on the target, the rest of the slot on the source.
		assertThat(client.renew("lock:{sm-x}a", "owner-a", LONG.plusMinutes(1))).isTrue();
		assertThat(pttl(target, "lock:{sm-x}a")).isGreaterThan(LONG.toMillis());
		assertThat(client.isHeld("lock:{sm-x}a", "owner-a")).isTrue();
		assertThat(client.renew("lock:{sm-x}a", "someone-else", LONG)).isFalse();
		assertThat(client.release("lock:{sm-x}b", "owner-b")).isTrue();
		assertThat(client.isHeld("lock:{sm-x}b", "owner-b")).isFalse();
		assertThat(client.release("lock:{sm-x}a", "owner-a")).isTrue();
		assertThat(pttl(target, "lock:{sm-x}a")).isEqualTo(-2L);
		assertThat(client.isHeld("lock:{sm-x}a", "owner-a")).isFalse();
	}

	@Test
	void readHoldIsRenewedCheckedAndReleasedOnEitherNodeWhileItsSlotMigrates() {
		RedisLockClient client = start();
		String readHolds = "{sm-r}\u001fread-holds\u001flock:{sm-r}a";
		assertThat(client.tryAcquireRead("lock:{sm-r}a", "reader-1", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquireRead("lock:{sm-r}a", "reader-2", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		RedisServer source = migrate("lock:{sm-r}a");
		RedisServer target = this.migration.target();
		assertThat(client.renew("lock:{sm-r}a", "reader-1", LONG)).isTrue();
		assertThat(pttl(source, readHolds)).isGreaterThan(SHORT.toMillis());
		assertThat(client.isHeld("lock:{sm-r}a", "reader-1")).isTrue();
		assertThat(client.releaseRead("lock:{sm-r}a", "reader-2")).isTrue();
		assertThat(this.migration.moveKey(readHolds)).isTrue();
		assertThat(client.renew("lock:{sm-r}a", "reader-1", LONG.plusMinutes(1))).isTrue();
		assertThat(pttl(target, readHolds)).isGreaterThan(LONG.toMillis());
		assertThat(client.isHeld("lock:{sm-r}a", "reader-1")).isTrue();
		assertThat(client.releaseRead("lock:{sm-r}a", "reader-1")).isTrue();
		assertThat(pttl(target, readHolds)).isEqualTo(-2L);
	}

	@Test
	void permitIsRenewedCheckedAndReleasedOnEitherNodeWhileItsSlotMigrates() {
		RedisLockClient client = start();
		String permits = client.permitLeaseKey("lock:{sm-p}a");
		assertThat(client.tryAcquirePermit("lock:{sm-p}a", "holder-1", SHORT, 3))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquirePermit("lock:{sm-p}a", "holder-2", SHORT, 3))
			.isInstanceOf(AcquireResult.Acquired.class);
		RedisServer source = migrate("lock:{sm-p}a");
		RedisServer target = this.migration.target();
		assertThat(client.renew(permits, "holder-1", LONG)).isTrue();
		assertThat(pttl(source, permits)).isGreaterThan(SHORT.toMillis());
		assertThat(client.isHeld(permits, "holder-1")).isTrue();
		assertThat(client.release(permits, "holder-2")).isTrue();
		assertThat(this.migration.moveKey(permits)).isTrue();
		assertThat(client.renew(permits, "holder-1", LONG.plusMinutes(1))).isTrue();
		assertThat(pttl(target, permits)).isGreaterThan(LONG.toMillis());
		assertThat(client.isHeld(permits, "holder-1")).isTrue();
		assertThat(client.releasePermit("lock:{sm-p}a", "holder-1")).isTrue();
		assertThat(pttl(target, permits)).isEqualTo(-2L);
	}

	@Test
	void batchOfEveryKindSplitBetweenTheNodesIsRenewedWhileItsSlotMigrates() {
		RedisLockClient client = start();
		String permits = client.permitLeaseKey("lock:{sm-b}p");
		String otherPermits = client.permitLeaseKey("lock:{sm-b}q");
		assertThat(client.tryAcquire("lock:{sm-b}x", "writer", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquire("lock:{sm-b}y", "writer", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquireRead("lock:{sm-b}r", "reader", SHORT)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquirePermit("lock:{sm-b}p", "holder", SHORT, 2))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client.tryAcquirePermit("lock:{sm-b}q", "holder", SHORT, 2))
			.isInstanceOf(AcquireResult.Acquired.class);
		migrate("lock:{sm-b}x");
		assertThat(this.migration.moveKey("lock:{sm-b}x")).isTrue();
		assertThat(this.migration.moveKey(permits)).isTrue();
		List<Renewal> renewals = List.of(new Renewal("lock:{sm-b}x", "writer", LONG),
				new Renewal("lock:{sm-b}y", "writer", LONG), new Renewal("lock:{sm-b}r", "reader", LONG),
				new Renewal(permits, "holder", LONG), new Renewal(otherPermits, "holder", LONG),
				new Renewal("lock:{sm-b}gone", "writer", LONG));
		assertThat(client.renewAll(renewals)).containsExactly(true, true, true, true, true, false);
		RedisServer target = this.migration.target();
		assertThat(pttl(target, "lock:{sm-b}x")).isGreaterThan(SHORT.toMillis());
		assertThat(pttl(this.migration.source(), "lock:{sm-b}y")).isGreaterThan(SHORT.toMillis());
		assertThat(pttl(target, permits)).isGreaterThan(SHORT.toMillis());
	}

	private RedisLockClient start() {
		this.application = ClusterApplication.start(redis.cluster());
		return this.application.client;
	}

	/**
	 * Begin moving the key's slot to another primary, and leave it half-moved.
	 * @return the source
	 */
	private RedisServer migrate(String key) {
		RedisCluster cluster = redis.cluster();
		int slot = RedisCluster.slot(key);
		RedisServer source = cluster.primaryForSlot(slot);
		RedisServer target = cluster.primaries().stream().filter((p) -> !p.equals(source)).findFirst().orElseThrow();
		this.migration = cluster.migrateSlot(slot, target);
		return source;
	}

	/**
	 * Return the key's remaining lease on the node, asking the target of the migration as
	 * Redis lets a client that was redirected there ask it.
	 */
	private static long pttl(RedisServer node, String key) {
		try (RespConnection connection = node.connect(RespConnection.DEFAULT_TIMEOUT)) {
			connection.command("ASKING");
			return (Long) connection.command("PTTL", key);
		}
	}

}
