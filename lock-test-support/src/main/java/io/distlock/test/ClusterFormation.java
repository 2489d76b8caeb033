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

import org.jspecify.annotations.Nullable;

/**
 * Starts the nodes of a {@link RedisCluster} and forms the cluster with plain cluster
 * commands, as {@code redis-cli --cluster create} would: config epochs, slots, meeting,
 * replication.
 */
final class ClusterFormation {

	private static final int ADDSLOTS_CHUNK = 1000;

	private static final int START_ATTEMPTS = 5;

	private final ClusterNodes nodes;

	private final ClusterAwaiter awaiter;

	private ClusterFormation(ClusterNodes nodes, ClusterAwaiter awaiter) {
		this.nodes = nodes;
		this.awaiter = awaiter;
	}

	/**
	 * Start the nodes, form the cluster and wait until it is healthy; if that fails, the
	 * nodes already started are closed.
	 */
	static RedisCluster create(int primaries, int replicasPerPrimary, Duration nodeTimeout, List<String> extraArgs) {
		List<String> args = nodeArgs(nodeTimeout, extraArgs);
		int count = primaries * (1 + replicasPerPrimary);
		List<RedisServer> started = new ArrayList<>(count);
		ClusterNodes nodes = null;
		try {
			for (int i = 0; i < count; i++) {
				started.add(startNode(args));
			}
			nodes = new ClusterNodes(started);
			ClusterAwaiter awaiter = new ClusterAwaiter(nodes, nodeTimeout);
			new ClusterFormation(nodes, awaiter).form(primaries, replicasPerPrimary);
			return new RedisCluster(nodes, awaiter);
		}
		catch (RuntimeException ex) {
			if (nodes != null) {
				nodes.closeConnections();
			}
			Closeables.closeAfter(ex, started);
			throw ex;
		}
	}

	/**
	 * Restart a stopped or killed node on its port, retrying until the deadline while the
	 * port or its cluster bus port is taken.
	 */
	static void restartNode(RedisServer node, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			try {
				node.ensureRunning();
				return;
			}
			catch (RedisStartupException ex) {
				// The cluster bus port may be taken for a while; see startNode.
				if (!isPortInUse(ex) || System.nanoTime() - deadline > 0) {
					throw ex;
				}
				Polling.sleep(ClusterAwaiter.POLL_INTERVAL, "waiting for the cluster");
			}
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
		List<RedisServer> all = this.nodes.list();
		// Distinct config epochs, as redis-cli gives them, spare the nodes resolving
		// collisions of the slots they claim.
		for (int i = 0; i < all.size(); i++) {
			this.nodes.command(all.get(i), "CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
		}
		for (int i = 0; i < primaries; i++) {
			int first = i * RedisCluster.SLOTS / primaries;
			int end = (i + 1) * RedisCluster.SLOTS / primaries;
			for (int chunk = first; chunk < end; chunk += ADDSLOTS_CHUNK) {
				List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
				for (int slot = chunk; slot < Math.min(end, chunk + ADDSLOTS_CHUNK); slot++) {
					command.add(Integer.toString(slot));
				}
				this.nodes.command(all.get(i), command.toArray(String[]::new));
			}
		}
		RedisServer first = all.get(0);
		for (RedisServer node : all.subList(1, all.size())) {
			this.nodes.command(first, "CLUSTER", "MEET", RedisServer.HOST, Integer.toString(node.port()));
		}
		this.awaiter.await("let every node meet every other", this::meetProblem);
		for (int i = 0; i < primaries; i++) {
			String primaryId = this.nodes.id(all.get(i));
			for (int r = 0; r < replicasPerPrimary; r++) {
				RedisServer replica = all.get(primaries + i * replicasPerPrimary + r);
				this.awaiter.await("make " + replica + " a replica of " + all.get(i), () -> {
					try {
						this.nodes.command(replica, "CLUSTER", "REPLICATE", primaryId);
						return null;
					}
					catch (RedisCommandException ex) {
						return "CLUSTER REPLICATE answered " + ex.getMessage();
					}
				});
			}
		}
		this.awaiter.awaitHealthy();
	}

	private @Nullable String meetProblem() {
		for (RedisServer node : this.nodes.list()) {
			ClusterView view = this.nodes.view(node);
			for (RedisServer other : this.nodes.list()) {
				ClusterNodeLine line = view.lineOf(other.port());
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

}
