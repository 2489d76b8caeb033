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

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisCluster} and {@link RedisClusterExtension}, on whichever Redis
 * version the harness runs.
 */
class RedisClusterTests {

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);

	@Test
	void startsThreePrimariesWithOneReplicaEachCoveringEverySlot() {
		// given
		RedisCluster cluster = redis.cluster();

		// when
		List<RedisServer> primaries = cluster.primaries();

		// then
		assertThat(cluster.nodeAddresses()).hasSize(6)
			.doesNotHaveDuplicates()
			.allMatch((address) -> address.startsWith("127.0.0.1:"));
		assertThat(primaries).hasSize(3);
		assertThat(primaries).allSatisfy((primary) -> assertThat(cluster.replicasOf(primary)).hasSize(1));
		assertThat(cluster.nodes()).allSatisfy((node) -> {
			String info = (String) node.command("CLUSTER", "INFO");
			assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:16384", "cluster_slots_ok:16384",
					"cluster_known_nodes:6");
		});
		assertThat(slotsServedBy(primaries.get(0))).isEqualTo(16384);
	}

	@Test
	void computesTheSlotOfAKeyAsRedisDoes() {
		// given
		RedisServer node = redis.cluster().nodes().get(0);

		// when, then
		for (String key : List.of("foo", "{user1}.lock", "distlock:orders:42", "{}x")) {
			assertThat(RedisCluster.slot(key)).isEqualTo(((Long) node.command("CLUSTER", "KEYSLOT", key)).intValue());
		}
		assertThat(RedisCluster.slot("{user1}.a")).isEqualTo(RedisCluster.slot("{user1}.b"));
	}

	@Test
	void ownerServesAKeyAndAnotherPrimaryRedirectsWithMoved() {
		// given
		RedisCluster cluster = redis.cluster();
		String key = "orders";
		RedisServer owner = cluster.primaryForKey(key);
		RedisServer other = otherPrimary(cluster, owner);

		// when
		owner.command("SET", key, "42");

		// then
		assertThat(owner.command("GET", key)).isEqualTo("42");
		assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> other.command("GET", key))
			.withMessage("MOVED " + RedisCluster.slot(key) + " 127.0.0.1:" + owner.port());
	}

	@Test
	void failoverPromotesTheReplicaAndKeepsTheData() {
		// given
		RedisCluster cluster = redis.cluster();
		String key = "failover";
		RedisServer primary = cluster.primaryForKey(key);
		RedisServer replica = cluster.replicasOf(primary).get(0);
		primary.command("SET", key, "kept");
		// Not WAIT: sent on a connection of its own, which wrote nothing, it waits for
		// nothing; the replica's acknowledged offset is what tells.
		primary.awaitReplicasInSync(1);

		// when
		RedisServer promoted = cluster.failover(primary);

		// then
		assertThat(promoted).isEqualTo(replica);
		assertThat(cluster.primaryForKey(key)).isEqualTo(replica);
		assertThat(cluster.primaries()).contains(replica).doesNotContain(primary);
		assertThat(cluster.replicasOf(replica)).containsExactly(primary);
		assertThat(replica.command("GET", key)).isEqualTo("kept");
	}

	@Test
	void killedPrimaryIsReplacedByItsReplicaAndRejoinsAsItsReplica() {
		// given
		RedisCluster cluster = redis.cluster();
		String key = "killed";
		RedisServer primary = cluster.primaryForKey(key);
		RedisServer replica = cluster.replicasOf(primary).get(0);
		primary.command("SET", key, "kept");
		// Not WAIT: sent on a connection of its own, which wrote nothing, it waits for
		// nothing; the replica's acknowledged offset is what tells.
		primary.awaitReplicasInSync(1);

		// when
		RedisServer promoted = cluster.killPrimaryAndAwaitFailover(primary);

		// then
		assertThat(promoted).isEqualTo(replica);
		assertThat(primary.isRunning()).isFalse();
		assertThat(cluster.primaryForKey(key)).isEqualTo(replica);
		assertThat(replica.command("GET", key)).isEqualTo("kept");

		// when
		cluster.rejoin(primary);

		// then
		assertThat(cluster.replicasOf(replica)).containsExactly(primary);
		assertThat((String) primary.command("INFO", "replication")).contains("role:slave",
				"master_port:" + replica.port());
	}

	@Test
	void migratingSlotRedirectsMovedKeysWithAskAndEveryKeyWithMovedOnceFinished() {
		// given
		RedisCluster cluster = redis.cluster();
		String moved = "{migration}.moved";
		String staying = "{migration}.staying";
		int slot = RedisCluster.slot(moved);
		RedisServer source = cluster.primaryForSlot(slot);
		RedisServer target = otherPrimary(cluster, source);
		source.command("SET", moved, "a");
		source.command("SET", staying, "b");

		// when
		RedisCluster.SlotMigration migration = cluster.migrateSlot(slot, target);
		boolean existed = migration.moveKey(moved);

		// then
		assertThat(existed).isTrue();
		assertThat(migration.source()).isEqualTo(source);
		assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> source.command("GET", moved))
			.withMessage("ASK " + slot + " 127.0.0.1:" + target.port());
		assertThat(source.command("GET", staying)).isEqualTo("b");
		assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> target.command("GET", moved))
			.withMessage("MOVED " + slot + " 127.0.0.1:" + source.port());
		assertThat(askingGet(target, moved)).isEqualTo("a");

		// when
		migration.finish();

		// then
		assertThat(cluster.primaryForSlot(slot)).isEqualTo(target);
		for (String key : List.of(moved, staying)) {
			assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> source.command("GET", key))
				.withMessage("MOVED " + slot + " 127.0.0.1:" + target.port());
		}
		assertThat(target.command("GET", moved)).isEqualTo("a");
		assertThat(target.command("GET", staying)).isEqualTo("b");
		assertThat(cluster.nodes()).allSatisfy((node) -> assertThat(slotsServedBy(node)).isEqualTo(16384));
	}

	@Test
	void moveSlotMovesEveryKeyOfTheSlot() {
		// given
		RedisCluster cluster = redis.cluster();
		int slot = RedisCluster.slot("{bulk}");
		RedisServer source = cluster.primaryForSlot(slot);
		RedisServer target = otherPrimary(cluster, source);
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 250; i++) {
			keys.add("{bulk}." + i);
			source.command("SET", "{bulk}." + i, Integer.toString(i));
		}

		// when
		cluster.moveSlot(slot, target);

		// then
		assertThat(cluster.primaryForSlot(slot)).isEqualTo(target);
		assertThat(source.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot))).isEqualTo(0L);
		assertThat(target.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot))).isEqualTo(250L);
		assertThat(target.command("GET", keys.get(249))).isEqualTo("249");
	}

	@Test
	void passwordProtectedClusterFailsOverAndMigratesSlots() {
		// given
		try (RedisCluster cluster = RedisCluster.start(2, 1, "--requirepass", "secret")) {
			RedisServer primary = cluster.primaryForKey("guarded");
			primary.command("SET", "guarded", "yes");

			// when
			RedisServer promoted = cluster.failover(primary);
			RedisServer target = otherPrimary(cluster, promoted);
			cluster.moveSlot(RedisCluster.slot("guarded"), target);

			// then
			assertThat(cluster.nodes()).allSatisfy((node) -> assertThat(node.password()).isEqualTo("secret"));
			assertThat(cluster.primaryForKey("guarded")).isEqualTo(target);
			assertThat(target.command("GET", "guarded")).isEqualTo("yes");
		}
	}

	@Test
	void closeStopsEveryNodeAlsoAKilledOne() {
		// given
		RedisCluster cluster = RedisCluster.builder().primaries(1).replicasPerPrimary(1).start();
		cluster.nodes().get(1).kill();
		List<Long> pids = List.of(cluster.nodes().get(0).pid());

		// when
		cluster.close();

		// then
		assertThat(pids).noneMatch((pid) -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
	}

	private static RedisServer otherPrimary(RedisCluster cluster, RedisServer primary) {
		return cluster.primaries().stream().filter((candidate) -> !candidate.equals(primary)).findFirst().orElseThrow();
	}

	private static Object askingGet(RedisServer node, String key) {
		try (RespConnection connection = RespConnection.open(node.host(), node.port(), node.password(),
				RespConnection.DEFAULT_TIMEOUT)) {
			connection.command("ASKING");
			return connection.command("GET", key);
		}
	}

	private static int slotsServedBy(RedisServer node) {
		int slots = 0;
		for (Object range : (List<?>) node.command("CLUSTER", "SLOTS")) {
			List<?> fields = (List<?>) range;
			slots += (int) ((Long) fields.get(1) - (Long) fields.get(0) + 1);
		}
		return slots;
	}

}
