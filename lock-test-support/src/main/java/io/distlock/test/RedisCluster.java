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

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

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

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

	private static final int ADDSLOTS_CHUNK = 1000;

	private static final int MIGRATE_BATCH = 100;

	private static final int START_ATTEMPTS = 5;

	private final List<RedisServer> nodes;

	private final @Nullable String password;

	private final Duration awaitTimeout;

	private final Map<RedisServer, RespConnection> connections = new HashMap<>();

	private RedisCluster(List<RedisServer> nodes, Duration nodeTimeout) {
		this.nodes = List.copyOf(nodes);
		this.password = nodes.get(0).password();
		// Failure detection and election take a few node timeouts; full syncs and the
		// writable delay of a restarted primary (2 s) come on top.
		this.awaitTimeout = Duration.ofSeconds(30).plus(nodeTimeout.multipliedBy(10));
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
		return this.nodes;
	}

	/**
	 * Return the {@code host:port} address of every node, for
	 * {@code spring.data.redis.cluster.nodes} or a {@code RedisClusterConfiguration}.
	 * @return the addresses, such as {@code 127.0.0.1:21345}
	 */
	public List<String> nodeAddresses() {
		return this.nodes.stream().map(RedisCluster::address).toList();
	}

	/**
	 * Return the running primaries as the cluster sees them now, ordered by the lowest
	 * slot they own; after a failover the promoted replica is among them.
	 * @return the primaries
	 */
	public List<RedisServer> primaries() {
		View view = view(anyRunning());
		return view.lines()
			.stream()
			.filter((line) -> line.isPrimary() && !line.isFailing())
			.map(this::server)
			.filter((server) -> server != null && server.isRunning())
			.map(Objects::requireNonNull)
			.sorted(Comparator.comparingInt((RedisServer server) -> view.lowestSlot(server.port()))
				.thenComparingInt(RedisServer::port))
			.toList();
	}

	/**
	 * Return the replicas of a primary as the cluster sees them now, stopped ones
	 * included.
	 * @param primary a primary of this cluster
	 * @return its replicas
	 */
	public List<RedisServer> replicasOf(RedisServer primary) {
		View view = view(anyRunning());
		String primaryId = view.idOf(primary.port());
		return view.lines()
			.stream()
			.filter((line) -> primaryId.equals(line.primaryId()))
			.map(this::server)
			.filter(Objects::nonNull)
			.map(Objects::requireNonNull)
			.toList();
	}

	/**
	 * Return the primary that owns a slot now.
	 * @param slot the slot, from 0 to 16383
	 * @return the owner
	 * @throws IllegalStateException if no node of this cluster owns the slot
	 */
	public RedisServer primaryForSlot(int slot) {
		checkSlot(slot);
		View view = view(anyRunning());
		String owner = view.slotOwners()[slot];
		for (NodeLine line : view.lines()) {
			if (line.id().equals(owner)) {
				RedisServer server = server(line);
				if (server != null) {
					return server;
				}
			}
		}
		throw new IllegalStateException(
				"No node of the cluster owns slot " + slot + "; " + view.observer() + " sees:\n" + view.text());
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
		List<Integer> slots = slotsOf(primary);
		RedisServer replica = replicasOf(primary).stream()
			.filter(RedisServer::isRunning)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException(primary + " has no running replica to fail over to"));
		command(replica, "CLUSTER", "FAILOVER");
		awaitOwner(replica, slots, "promote " + replica + " in place of " + primary);
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
		List<Integer> slots = slotsOf(primary);
		List<RedisServer> replicas = replicasOf(primary).stream().filter(RedisServer::isRunning).toList();
		if (replicas.isEmpty()) {
			throw new IllegalStateException(primary + " has no running replica to fail over to");
		}
		primary.kill();
		RedisServer[] promoted = new RedisServer[1];
		await("promote a replica of " + primary + " after killing it", () -> {
			for (RedisServer replica : replicas) {
				if (ownerMismatch(replica, slots) == null) {
					promoted[0] = replica;
					return healthProblem();
				}
			}
			return "no replica of " + primary + " owns its slots yet";
		});
		return Objects.requireNonNull(promoted[0]);
	}

	/**
	 * Restart a stopped or killed node on its port with its cluster configuration, and
	 * wait until the cluster is healthy; a former primary whose slots were taken over
	 * comes back as a replica of the new owner.
	 * @param node a node of this cluster
	 */
	public void rejoin(RedisServer node) {
		checkNode(node);
		long deadline = System.nanoTime() + this.awaitTimeout.toNanos();
		while (true) {
			try {
				node.ensureRunning();
				break;
			}
			catch (RedisStartupException ex) {
				// The cluster bus port may be taken for a while; see startNode.
				if (!isPortInUse(ex) || System.nanoTime() - deadline > 0) {
					throw ex;
				}
				sleep(POLL_INTERVAL);
			}
		}
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
		checkNode(target);
		RedisServer source = primaryForSlot(slot);
		if (source.equals(target)) {
			throw new IllegalArgumentException(target + " already owns slot " + slot);
		}
		String s = Integer.toString(slot);
		command(target, "CLUSTER", "SETSLOT", s, "IMPORTING", id(source));
		command(source, "CLUSTER", "SETSLOT", s, "MIGRATING", id(target));
		return new SlotMigration(slot, source, target);
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
		await("become healthy", this::healthProblem);
	}

	/**
	 * Close every node, also when closing one of them fails; the first failure is thrown
	 * afterwards with the others suppressed.
	 */
	@Override
	public void close() {
		closeConnections();
		closeAll(this.nodes);
	}

	@Override
	public String toString() {
		return "Redis Cluster of " + nodeAddresses();
	}

	private static RedisCluster create(int primaries, int replicasPerPrimary, Duration nodeTimeout,
			List<String> extraArgs) {
		List<String> args = nodeArgs(nodeTimeout, extraArgs);
		int count = primaries * (1 + replicasPerPrimary);
		List<RedisServer> started = new ArrayList<>(count);
		RedisCluster cluster = null;
		try {
			for (int i = 0; i < count; i++) {
				started.add(startNode(args));
			}
			cluster = new RedisCluster(started, nodeTimeout);
			cluster.form(primaries, replicasPerPrimary);
			return cluster;
		}
		catch (RuntimeException ex) {
			if (cluster != null) {
				cluster.closeConnections();
			}
			try {
				closeAll(started);
			}
			catch (RuntimeException closeFailure) {
				ex.addSuppressed(closeFailure);
			}
			throw ex;
		}
	}

	// The cluster bus listens on the port plus 10000, which PortAllocator does not check
	// and which may be an ephemeral port of some client connection at the time: then
	// another port is tried.
	private static RedisServer startNode(List<String> args) {
		for (int attempt = 1;; attempt++) {
			try {
				return RedisServer.start(args.toArray(String[]::new));
			}
			catch (RedisStartupException ex) {
				if (!isPortInUse(ex) || attempt == START_ATTEMPTS) {
					throw ex;
				}
			}
		}
	}

	private static boolean isPortInUse(RedisStartupException ex) {
		// Redis 7.0 as embedded (musl) says "Address in use", glibc builds "Address
		// already in use".
		return ex.isPortInUse() || String.valueOf(ex.getMessage()).contains("Address in use");
	}

	private static List<String> nodeArgs(Duration nodeTimeout, List<String> extraArgs) {
		List<String> args = new ArrayList<>(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
				"--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()),
				// Any replica may be promoted, however long it was cut off: failover on
				// loopback then only waits for failure detection and the election.
				"--cluster-replica-validity-factor", "0",
				// Replicas stay with the primary they were given.
				"--cluster-migration-barrier", "999",
				// Redis 7 syncs replicas diskless by default, after waiting 5 s for more
				// replicas to share the transfer.
				"--repl-diskless-sync-delay", "0"));
		String password = null;
		boolean masterAuth = false;
		for (int i = 0; i < extraArgs.size(); i++) {
			String arg = extraArgs.get(i);
			if (arg.equalsIgnoreCase("--requirepass") && i + 1 < extraArgs.size()) {
				password = extraArgs.get(i + 1);
			}
			masterAuth |= arg.equalsIgnoreCase("--masterauth");
		}
		if (password != null && !masterAuth) {
			// Every node may become a replica after a failover.
			args.addAll(List.of("--masterauth", password));
		}
		args.addAll(extraArgs);
		return args;
	}

	private void form(int primaries, int replicasPerPrimary) {
		// Distinct config epochs, as redis-cli gives them, spare the nodes resolving
		// collisions of the slots they claim.
		for (int i = 0; i < this.nodes.size(); i++) {
			command(this.nodes.get(i), "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
		}
		for (int i = 0; i < primaries; i++) {
			int first = i * SLOTS / primaries;
			int end = (i + 1) * SLOTS / primaries;
			for (int chunk = first; chunk < end; chunk += ADDSLOTS_CHUNK) {
				List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
				for (int slot = chunk; slot < Math.min(end, chunk + ADDSLOTS_CHUNK); slot++) {
					command.add(Integer.toString(slot));
				}
				command(this.nodes.get(i), command.toArray(String[]::new));
			}
		}
		RedisServer first = this.nodes.get(0);
		for (RedisServer node : this.nodes.subList(1, this.nodes.size())) {
			command(first, "CLUSTER", "MEET", RedisServer.HOST, Integer.toString(node.port()));
		}
		await("let every node meet every other", this::meetProblem);
		for (int i = 0; i < primaries; i++) {
			String primaryId = id(this.nodes.get(i));
			for (int r = 0; r < replicasPerPrimary; r++) {
				RedisServer replica = this.nodes.get(primaries + i * replicasPerPrimary + r);
				await("make " + replica + " a replica of " + this.nodes.get(i), () -> {
					try {
						command(replica, "CLUSTER", "REPLICATE", primaryId);
						return null;
					}
					catch (RedisCommandException ex) {
						return "CLUSTER REPLICATE answered " + ex.getMessage();
					}
				});
			}
		}
		awaitHealthy();
	}

	private @Nullable String meetProblem() {
		for (RedisServer node : this.nodes) {
			View view = view(node);
			for (RedisServer other : this.nodes) {
				NodeLine line = view.lineOf(other.port());
				if (line == null) {
					return node + " does not know " + other + " yet";
				}
				if (line.flags().contains("handshake") || line.flags().contains("noaddr")) {
					return node + " is still in handshake with " + other;
				}
			}
		}
		return null;
	}

	private @Nullable String healthProblem() {
		List<RedisServer> running = this.nodes.stream().filter(RedisServer::isRunning).toList();
		if (running.isEmpty()) {
			return "no node is running";
		}
		View reference = null;
		for (RedisServer node : running) {
			String info = (String) Objects.requireNonNull(command(node, "CLUSTER", "INFO"));
			if (!info.contains("cluster_state:ok")) {
				return node + " reports cluster_state other than ok";
			}
			if (!info.contains("cluster_slots_ok:" + SLOTS)) {
				return node + " does not report all " + SLOTS + " slots ok";
			}
			View view = view(node);
			for (RedisServer other : running) {
				NodeLine line = view.lineOf(other.port());
				if (line == null || line.isFailing() || line.flags().contains("handshake")) {
					return node + " does not see " + other + " as a healthy node";
				}
			}
			if (reference == null) {
				reference = view;
				for (String owner : view.slotOwners()) {
					RedisServer server = (owner != null) ? serverById(view, owner) : null;
					if (server == null || !server.isRunning()) {
						return node + " sees a slot owned by " + owner + ", which is not a running node";
					}
				}
			}
			else {
				if (!Arrays.equals(view.slotOwners(), reference.slotOwners())) {
					return node + " and " + reference.observer() + " disagree on the owners of slots";
				}
				for (RedisServer other : running) {
					if (!Objects.equals(view.roleOf(other.port()), reference.roleOf(other.port()))) {
						return node + " and " + reference.observer() + " disagree on the role of " + other;
					}
				}
			}
			String replication = (String) Objects.requireNonNull(command(node, "INFO", "replication"));
			if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
				return node + " is a replica whose link to its primary is not up";
			}
		}
		return null;
	}

	private void awaitOwner(RedisServer owner, List<Integer> slots, String description) {
		await(description, () -> {
			String mismatch = ownerMismatch(owner, slots);
			return (mismatch != null) ? mismatch : healthProblem();
		});
	}

	// Whether every running node sees the given node as a primary owning the slots.
	private @Nullable String ownerMismatch(RedisServer owner, List<Integer> slots) {
		if (!owner.isRunning()) {
			return owner + " is not running";
		}
		for (RedisServer node : this.nodes) {
			if (!node.isRunning()) {
				continue;
			}
			View view = view(node);
			NodeLine line = view.lineOf(owner.port());
			if (line == null || !line.isPrimary()) {
				return node + " does not see " + owner + " as a primary yet";
			}
			String[] owners = view.slotOwners();
			for (int slot : slots) {
				if (!line.id().equals(owners[slot])) {
					return node + " does not see " + owner + " as the owner of slot " + slot + " yet";
				}
			}
		}
		return null;
	}

	private List<Integer> slotsOf(RedisServer primary) {
		checkNode(primary);
		View view = view(anyRunning());
		String id = view.idOf(primary.port());
		String[] owners = view.slotOwners();
		List<Integer> slots = new ArrayList<>();
		for (int slot = 0; slot < SLOTS; slot++) {
			if (id.equals(owners[slot])) {
				slots.add(slot);
			}
		}
		if (slots.isEmpty()) {
			throw new IllegalStateException(primary + " owns no slots");
		}
		return slots;
	}

	private void await(String description, Supplier<@Nullable String> problem) {
		long deadline = System.nanoTime() + this.awaitTimeout.toNanos();
		String last;
		while (true) {
			try {
				last = problem.get();
				if (last == null) {
					return;
				}
			}
			catch (RuntimeException ex) {
				last = ex.toString();
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("The cluster did not " + description + " within "
						+ this.awaitTimeout.toMillis() + " ms; last problem: " + last + "\n" + describeNodes());
			}
			sleep(POLL_INTERVAL);
		}
	}

	private String describeNodes() {
		StringBuilder description = new StringBuilder();
		for (RedisServer node : this.nodes) {
			description.append("CLUSTER NODES of ").append(address(node)).append(':');
			if (!node.isRunning()) {
				description.append(" not running\n");
				continue;
			}
			try {
				description.append('\n').append(command(node, "CLUSTER", "NODES"));
			}
			catch (RuntimeException ex) {
				description.append(' ').append(ex).append('\n');
			}
		}
		return description.toString();
	}

	private RedisServer anyRunning() {
		return this.nodes.stream()
			.filter(RedisServer::isRunning)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No node of " + this + " is running"));
	}

	private String id(RedisServer node) {
		return (String) Objects.requireNonNull(command(node, "CLUSTER", "MYID"));
	}

	private View view(RedisServer node) {
		return View.parse(node, (String) Objects.requireNonNull(command(node, "CLUSTER", "NODES")));
	}

	private @Nullable RedisServer server(NodeLine line) {
		for (RedisServer node : this.nodes) {
			if (node.port() == line.port()) {
				return node;
			}
		}
		return null;
	}

	private @Nullable RedisServer serverById(View view, String id) {
		for (NodeLine line : view.lines()) {
			if (line.id().equals(id)) {
				return server(line);
			}
		}
		return null;
	}

	// Connections are kept open: a connection per poll would leave thousands of
	// ephemeral ports in TIME_WAIT, some of them cluster bus ports of nodes to come.
	private synchronized @Nullable Object command(RedisServer node, String... args) {
		RespConnection connection = this.connections.remove(node);
		if (connection != null) {
			try {
				Object reply = connection.command(args);
				this.connections.put(node, connection);
				return reply;
			}
			catch (UncheckedIOException ex) {
				// Most likely the node was restarted since: try once more on a new
				// connection.
				connection.close();
			}
			catch (RuntimeException ex) {
				this.connections.put(node, connection);
				throw ex;
			}
		}
		connection = RespConnection.open(RedisServer.HOST, node.port(), this.password, COMMAND_TIMEOUT);
		try {
			Object reply = connection.command(args);
			this.connections.put(node, connection);
			return reply;
		}
		catch (RedisCommandException ex) {
			this.connections.put(node, connection);
			throw ex;
		}
		catch (RuntimeException ex) {
			connection.close();
			throw ex;
		}
	}

	private synchronized void closeConnections() {
		this.connections.values().forEach(RespConnection::close);
		this.connections.clear();
	}

	private void checkNode(RedisServer node) {
		if (!this.nodes.contains(node)) {
			throw new IllegalArgumentException(node + " is not a node of " + this);
		}
	}

	private static void checkSlot(int slot) {
		if (slot < 0 || slot >= SLOTS) {
			throw new IllegalArgumentException("slot must be from 0 to " + (SLOTS - 1) + " but was " + slot);
		}
	}

	private static String address(RedisServer node) {
		return RedisServer.HOST + ":" + node.port();
	}

	private static void closeAll(List<RedisServer> servers) {
		RuntimeException failure = null;
		for (RedisServer server : servers) {
			try {
				server.close();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the cluster", ex);
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
			return create(this.primaries, this.replicasPerPrimary, this.nodeTimeout, this.extraArgs);
		}

	}

	/**
	 * A slot being moved from one primary to another, begun by
	 * {@link RedisCluster#migrateSlot(int, RedisServer)}.
	 */
	public final class SlotMigration {

		private final int slot;

		private final RedisServer source;

		private final RedisServer target;

		private SlotMigration(int slot, RedisServer source, RedisServer target) {
			this.slot = slot;
			this.source = source;
			this.target = target;
		}

		/**
		 * Return the slot being moved.
		 * @return the slot
		 */
		public int slot() {
			return this.slot;
		}

		/**
		 * Return the primary that owned the slot when the migration began.
		 * @return the source
		 */
		public RedisServer source() {
			return this.source;
		}

		/**
		 * Return the primary that will own the slot.
		 * @return the target
		 */
		public RedisServer target() {
			return this.target;
		}

		/**
		 * Move one key of the slot to the target with {@code MIGRATE}; afterwards the
		 * source answers commands on it with an {@code ASK} redirect.
		 * @param key a key of the slot
		 * @return whether the key existed on the source
		 */
		public boolean moveKey(String key) {
			if (RedisCluster.slot(key) != this.slot) {
				throw new IllegalArgumentException(
						key + " is in slot " + RedisCluster.slot(key) + ", not " + this.slot);
			}
			return migrate(List.of(key));
		}

		/**
		 * Move every key of the slot that is still on the source to the target.
		 * @return how many keys were moved
		 */
		public int moveKeys() {
			int moved = 0;
			while (true) {
				List<?> keys = (List<?>) Objects.requireNonNull(command(this.source, "CLUSTER", "GETKEYSINSLOT",
						Integer.toString(this.slot), Integer.toString(MIGRATE_BATCH)));
				if (keys.isEmpty()) {
					return moved;
				}
				migrate(keys.stream().map(String.class::cast).toList());
				moved += keys.size();
			}
		}

		/**
		 * Move the remaining keys, assign the slot to the target on every primary and
		 * wait until all nodes agree and the cluster is healthy; afterwards the source
		 * answers with a {@code MOVED} redirect.
		 */
		public void finish() {
			moveKeys();
			String s = Integer.toString(this.slot);
			String targetId = id(this.target);
			// Target first, so it owns the slot before the source stops redirecting to
			// it.
			command(this.target, "CLUSTER", "SETSLOT", s, "NODE", targetId);
			command(this.source, "CLUSTER", "SETSLOT", s, "NODE", targetId);
			for (RedisServer primary : primaries()) {
				if (!primary.equals(this.target) && !primary.equals(this.source)) {
					command(primary, "CLUSTER", "SETSLOT", s, "NODE", targetId);
				}
			}
			awaitOwner(this.target, List.of(this.slot), "agree that " + this.target + " owns slot " + this.slot);
		}

		private boolean migrate(List<String> keys) {
			List<String> command = new ArrayList<>(List.of("MIGRATE", RedisServer.HOST,
					Integer.toString(this.target.port()), "", "0", Long.toString(COMMAND_TIMEOUT.toMillis() / 2)));
			if (RedisCluster.this.password != null) {
				command.addAll(List.of("AUTH", RedisCluster.this.password));
			}
			command.add("KEYS");
			command.addAll(keys);
			return "OK".equals(command(this.source, command.toArray(String[]::new)));
		}

	}

	/**
	 * One line of {@code CLUSTER NODES}.
	 */
	private record NodeLine(String id, int port, Set<String> flags, @Nullable String primaryId,
			List<int[]> slotRanges) {

		static NodeLine parse(String text) {
			String[] fields = text.trim().split(" ");
			// ip:port@cport, with ",hostname" on Redis 7 when one is announced.
			String address = fields[1].split("@")[0];
			int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
			Set<String> flags = new HashSet<>(Arrays.asList(fields[2].split(",")));
			String primaryId = fields[3].equals("-") ? null : fields[3];
			List<int[]> ranges = new ArrayList<>();
			for (int i = 8; i < fields.length; i++) {
				String field = fields[i];
				if (field.startsWith("[")) {
					// An importing or migrating slot: still owned by the node listed for
					// it.
					continue;
				}
				int dash = field.indexOf('-');
				if (dash < 0) {
					int slot = Integer.parseInt(field);
					ranges.add(new int[] { slot, slot });
				}
				else {
					ranges.add(new int[] { Integer.parseInt(field.substring(0, dash)),
							Integer.parseInt(field.substring(dash + 1)) });
				}
			}
			return new NodeLine(fields[0], port, flags, primaryId, ranges);
		}

		boolean isPrimary() {
			return this.flags.contains("master");
		}

		boolean isFailing() {
			return this.flags.contains("fail") || this.flags.contains("fail?") || this.flags.contains("noaddr");
		}

		String role() {
			return isPrimary() ? "primary" : "replica of " + this.primaryId;
		}

	}

	/**
	 * The cluster as one node sees it: its {@code CLUSTER NODES} output.
	 */
	private record View(RedisServer observer, String text, List<NodeLine> lines, @Nullable String[] slotOwners) {

		static View parse(RedisServer observer, String text) {
			List<NodeLine> lines = new ArrayList<>();
			for (String line : text.split("\n")) {
				if (!line.isBlank()) {
					lines.add(NodeLine.parse(line));
				}
			}
			@Nullable String[] owners = new String[SLOTS];
			for (NodeLine line : lines) {
				for (int[] range : line.slotRanges()) {
					Arrays.fill(owners, range[0], range[1] + 1, line.id());
				}
			}
			return new View(observer, text, List.copyOf(lines), owners);
		}

		@Nullable NodeLine lineOf(int port) {
			for (NodeLine line : this.lines) {
				if (line.port() == port) {
					return line;
				}
			}
			return null;
		}

		String idOf(int port) {
			NodeLine line = lineOf(port);
			if (line == null) {
				throw new IllegalStateException(
						this.observer + " does not know the node on port " + port + "; it sees:\n" + this.text);
			}
			return line.id();
		}

		@Nullable String roleOf(int port) {
			NodeLine line = lineOf(port);
			return (line != null) ? line.role() : null;
		}

		int lowestSlot(int port) {
			NodeLine line = lineOf(port);
			if (line == null) {
				return SLOTS;
			}
			return line.slotRanges().stream().mapToInt((range) -> range[0]).min().orElse(SLOTS);
		}

	}

}
