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
import java.util.List;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * A real Redis Cluster of {@link RedisServer} processes on free {@code 127.0.0.1} ports,
 * set up with plain cluster commands, for tests that need redirects, failover and slot
 * migration: <pre class="code">
 * try (RedisCluster cluster = RedisCluster.start(3, 1)) {
 *     RedisServer owner = cluster.primaryForKey("orders");
 *     RedisServer promoted = cluster.killPrimaryAndAwaitFailover(owner);
 * }
 * </pre> Every method that changes the cluster waits until all running nodes agree on the
 * result, and fails with the {@code CLUSTER NODES} output of every node if they do not in
 * time. Works with the Redis 6.2 and 7.0 binaries, with or without {@code --requirepass}.
 */
public final class RedisCluster implements AutoCloseable {

	/**
	 * The number of hash slots of a Redis Cluster.
	 */
	public static final int SLOTS = 16384;

	private static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(1000);

	private final ClusterNodes nodes;

	private final ClusterAwaiter awaiter;

	RedisCluster(ClusterNodes nodes, ClusterAwaiter awaiter) {
		this.nodes = nodes;
		this.awaiter = awaiter;
	}

	/**
	 * Start a cluster with the given shape and a node timeout of one second, and wait
	 * until it is healthy.
	 * @param primaries how many primaries share the 16384 slots evenly
	 * @param replicasPerPrimary how many replicas each primary gets
	 * @param extraArgs further {@code redis-server} arguments given to every node, such
	 * as {@code "--requirepass", "secret"} (then {@code --masterauth} is added too)
	 * @return the healthy cluster, to be closed by the caller
	 */
	public static RedisCluster start(int primaries, int replicasPerPrimary, String... extraArgs) {
		return builder().primaries(primaries).replicasPerPrimary(replicasPerPrimary).extraArgs(extraArgs).start();
	}

	/**
	 * Return a builder for a cluster with more options than
	 * {@link #start(int, int, String...)}; three primaries with one replica each unless
	 * told otherwise.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the hash slot of a key, honouring hash tags such as {@code {user1}.lock}.
	 * @param key the key
	 * @return the slot, from 0 to 16383
	 */
	public static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key);
	}

	/**
	 * Return every node in start order, the first primaries before their replicas;
	 * stopped and killed nodes included.
	 * @return an unmodifiable list of the nodes
	 */
	public List<RedisServer> nodes() {
		return this.nodes.list();
	}

	/**
	 * Return the {@code host:port} address of every node, for
	 * {@code spring.data.redis.cluster.nodes} or a {@code RedisClusterConfiguration}.
	 * @return the addresses, such as {@code 127.0.0.1:21345}
	 */
	public List<String> nodeAddresses() {
		return this.nodes.addresses();
	}

	/**
	 * Return the running primaries as the cluster sees them now, ordered by the lowest
	 * slot they own; after a failover the promoted replica is among them.
	 * @return the primaries
	 */
	public List<RedisServer> primaries() {
		return this.nodes.primaries();
	}

	/**
	 * Return the replicas of a primary as the cluster sees them now, stopped ones
	 * included.
	 * @param primary a primary of this cluster
	 * @return its replicas
	 */
	public List<RedisServer> replicasOf(RedisServer primary) {
		return this.nodes.replicasOf(primary);
	}

	/**
	 * Return the primary that owns a slot now.
	 * @param slot the slot, from 0 to 16383
	 * @return the owner
	 * @throws IllegalStateException if no node of this cluster owns the slot
	 */
	public RedisServer primaryForSlot(int slot) {
		checkSlot(slot);
		return this.nodes.primaryForSlot(slot);
	}

	/**
	 * Return the primary that owns the slot of a key now.
	 * @param key the key
	 * @return the owner
	 */
	public RedisServer primaryForKey(String key) {
		return primaryForSlot(slot(key));
	}

	/**
	 * Promote a replica of the given primary with {@code CLUSTER FAILOVER}, and wait
	 * until every running node sees it as the owner of the primary's slots and the
	 * cluster is healthy. The old primary becomes its replica.
	 * @param primary a running primary with a running replica
	 * @return the new primary
	 */
	public RedisServer failover(RedisServer primary) {
		List<Integer> slots = this.nodes.slotsOf(primary);
		RedisServer replica = replicasOf(primary).stream()
			.filter(RedisServer::isRunning)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException(primary + " has no running replica to fail over to"));
		this.nodes.command(replica, "CLUSTER", "FAILOVER");
		this.awaiter.awaitOwner(replica, slots, "promote " + replica + " in place of " + primary);
		return replica;
	}

	/**
	 * Kill a primary with SIGKILL, and wait until the cluster promotes one of its
	 * replicas and is healthy again; {@link #rejoin(RedisServer)} brings the killed node
	 * back.
	 * @param primary a running primary with a running replica
	 * @return the new primary
	 */
	public RedisServer killPrimaryAndAwaitFailover(RedisServer primary) {
		List<Integer> slots = this.nodes.slotsOf(primary);
		List<RedisServer> replicas = replicasOf(primary).stream().filter(RedisServer::isRunning).toList();
		if (replicas.isEmpty()) {
			throw new IllegalStateException(primary + " has no running replica to fail over to");
		}
		primary.kill();
		return this.awaiter.awaitPromotion(primary, replicas, slots);
	}

	/**
	 * Restart a stopped or killed node on its port with its cluster configuration, and
	 * wait until the cluster is healthy; a former primary whose slots were taken over
	 * comes back as a replica of the new owner.
	 * @param node a node of this cluster
	 */
	public void rejoin(RedisServer node) {
		this.nodes.checkNode(node);
		ClusterFormation.restartNode(node, this.awaiter.timeout());
		awaitHealthy();
	}

	/**
	 * Begin moving a slot to another primary: the target imports it and its current owner
	 * migrates it. Until {@link SlotMigration#finish()}, clients get an {@code ASK}
	 * redirect for keys of the slot that were already moved.
	 * @param slot the slot, from 0 to 16383
	 * @param target the primary that will own the slot
	 * @return the migration, to be finished by the caller
	 */
	public SlotMigration migrateSlot(int slot, RedisServer target) {
		checkSlot(slot);
		this.nodes.checkNode(target);
		return new SlotMigration(ClusterSlotMigration.begin(this.nodes, this.awaiter, slot, target));
	}

	/**
	 * Move a slot with all its keys to another primary and wait until every node agrees;
	 * afterwards clients get a {@code MOVED} redirect to the target.
	 * @param slot the slot, from 0 to 16383
	 * @param target the primary that will own the slot
	 */
	public void moveSlot(int slot, RedisServer target) {
		migrateSlot(slot, target).finish();
	}

	/**
	 * Wait until every running node reports {@code cluster_state:ok} with all 16384 slots
	 * ok, all running nodes agree on the owner of every slot and the role of every node,
	 * and every running replica's link to its primary is up.
	 * @throws IllegalStateException if that does not happen in time, with the
	 * {@code CLUSTER NODES} output of every node
	 */
	public void awaitHealthy() {
		this.awaiter.awaitHealthy();
	}

	/**
	 * Close every node, also when closing one of them fails; the first failure is thrown
	 * afterwards with the others suppressed.
	 */
	@Override
	public void close() {
		this.nodes.closeConnections();
		Closeables.closeAll(this.nodes.list());
	}

	@Override
	public String toString() {
		return this.nodes.toString();
	}

	private static void checkSlot(int slot) {
		if (slot < 0 || slot >= SLOTS) {
			throw new IllegalArgumentException("slot must be from 0 to " + (SLOTS - 1) + " but was " + slot);
		}
	}

	/**
	 * Builder for a {@link RedisCluster}.
	 */
	public static final class Builder {

		private int primaries = 3;

		private int replicasPerPrimary = 1;

		private Duration nodeTimeout = DEFAULT_NODE_TIMEOUT;

		private List<String> extraArgs = List.of();

		private Builder() {
		}

		/**
		 * Set how many primaries share the slots; 3 by default.
		 * @param primaries the number of primaries, at least 1
		 * @return this builder
		 */
		public Builder primaries(int primaries) {
			if (primaries < 1) {
				throw new IllegalArgumentException("primaries must be at least 1 but was " + primaries);
			}
			this.primaries = primaries;
			return this;
		}

		/**
		 * Set how many replicas each primary gets; 1 by default.
		 * @param replicasPerPrimary the number of replicas, at least 0
		 * @return this builder
		 */
		public Builder replicasPerPrimary(int replicasPerPrimary) {
			if (replicasPerPrimary < 0) {
				throw new IllegalArgumentException(
						"replicasPerPrimary must be at least 0 but was " + replicasPerPrimary);
			}
			this.replicasPerPrimary = replicasPerPrimary;
			return this;
		}

		/**
		 * Set {@code cluster-node-timeout}, after which an unreachable node counts as
		 * failing; 1 second by default.
		 * @param nodeTimeout the timeout, at least 100 ms
		 * @return this builder
		 */
		public Builder nodeTimeout(Duration nodeTimeout) {
			if (nodeTimeout.toMillis() < 100) {
				throw new IllegalArgumentException("nodeTimeout must be at least 100 ms but was " + nodeTimeout);
			}
			this.nodeTimeout = nodeTimeout;
			return this;
		}

		/**
		 * Set further {@code redis-server} arguments given to every node, such as
		 * {@code "--requirepass", "secret"}.
		 * @param extraArgs the arguments
		 * @return this builder
		 */
		public Builder extraArgs(String... extraArgs) {
			this.extraArgs = List.of(extraArgs);
			return this;
		}

		/**
		 * Start the nodes, form the cluster and wait until it is healthy; if that fails,
		 * the nodes already started are closed.
		 * @return the healthy cluster, to be closed by the caller
		 */
		public RedisCluster start() {
			return ClusterFormation.create(this.primaries, this.replicasPerPrimary, this.nodeTimeout, this.extraArgs);
		}

	}

	/**
	 * A slot being moved from one primary to another, begun by
	 * {@link RedisCluster#migrateSlot(int, RedisServer)}.
	 */
	public final class SlotMigration {

		private final ClusterSlotMigration migration;

		private SlotMigration(ClusterSlotMigration migration) {
			this.migration = migration;
		}

		/**
		 * Return the slot being moved.
		 * @return the slot
		 */
		public int slot() {
			return this.migration.slot();
		}

		/**
		 * Return the primary that owned the slot when the migration began.
		 * @return the source
		 */
		public RedisServer source() {
			return this.migration.source();
		}

		/**
		 * Return the primary that will own the slot.
		 * @return the target
		 */
		public RedisServer target() {
			return this.migration.target();
		}

		/**
		 * Move one key of the slot to the target with {@code MIGRATE}; afterwards the
		 * source answers commands on it with an {@code ASK} redirect.
		 * @param key a key of the slot
		 * @return whether the key existed on the source
		 */
		public boolean moveKey(String key) {
			return this.migration.moveKey(key);
		}

		/**
		 * Move every key of the slot that is still on the source to the target.
		 * @return how many keys were moved
		 */
		public int moveKeys() {
			return this.migration.moveKeys();
		}

		/**
		 * Move the remaining keys, assign the slot to the target on every primary and
		 * wait until all nodes agree and the cluster is healthy; afterwards the source
		 * answers with a {@code MOVED} redirect.
		 */
		public void finish() {
			this.migration.finish();
		}

	}

}
