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
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Waits until every running node of a cluster agrees on a change, polling the nodes up to
 * a deadline, and fails with the {@code CLUSTER NODES} output of every node if they do
 * not.
 */
final class ClusterAwaiter {

	static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	private final ClusterNodes nodes;

	private final Duration timeout;

	ClusterAwaiter(ClusterNodes nodes, Duration nodeTimeout) {
		this.nodes = nodes;
		// Failure detection and election take a few node timeouts; full syncs and the
		// writable delay of a restarted primary (2 s) come on top.
		this.timeout = Duration.ofSeconds(30).plus(nodeTimeout.multipliedBy(10));
	}

	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Wait until the problem is {@code null}; a problem that throws counts as the
	 * exception's text.
	 */
	void await(String description, Supplier<@Nullable String> problem) {
		long deadline = System.nanoTime() + this.timeout.toNanos();
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
						+ this.timeout.toMillis() + " ms; last problem: " + last + "\n" + this.nodes.describe());
			}
			Polling.sleep(POLL_INTERVAL, "waiting for the cluster");
		}
	}

	void awaitHealthy() {
		await("become healthy", this::healthProblem);
	}

	void awaitOwner(RedisServer owner, List<Integer> slots, String description) {
		await(description, () -> {
			String mismatch = ownerMismatch(owner, slots);
			return (mismatch != null) ? mismatch : healthProblem();
		});
	}

	// Wait until one of the replicas of a killed primary owns its slots and the cluster
	// is healthy.
	RedisServer awaitPromotion(RedisServer primary, List<RedisServer> replicas, List<Integer> slots) {
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

	// Every running node reports cluster_state:ok with all slots ok, sees every other as
	// healthy and agrees on slot owners and roles; every running replica's link is up.
	private @Nullable String healthProblem() {
		List<RedisServer> running = this.nodes.list().stream().filter(RedisServer::isRunning).toList();
		if (running.isEmpty()) {
			return "no node is running";
		}
		ClusterView reference = null;
		for (RedisServer node : running) {
			String info = (String) Objects.requireNonNull(this.nodes.command(node, "CLUSTER", "INFO"));
			if (!info.contains("cluster_state:ok")) {
				return node + " reports cluster_state other than ok";
			}
			if (!info.contains("cluster_slots_ok:" + RedisCluster.SLOTS)) {
				return node + " does not report all " + RedisCluster.SLOTS + " slots ok";
			}
			ClusterView view = this.nodes.view(node);
			for (RedisServer other : running) {
				ClusterNodeLine line = view.lineOf(other.port());
				if (line == null || line.isFailing() || line.flags().contains("handshake")) {
					return node + " does not see " + other + " as a healthy node";
				}
			}
			if (reference == null) {
				reference = view;
				for (String owner : view.slotOwners()) {
					RedisServer server = (owner != null) ? this.nodes.serverById(view, owner) : null;
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
			String replication = (String) Objects.requireNonNull(this.nodes.command(node, "INFO", "replication"));
			if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
				return node + " is a replica whose link to its primary is not up";
			}
		}
		return null;
	}

	// Whether every running node sees the given node as a primary owning the slots.
	private @Nullable String ownerMismatch(RedisServer owner, List<Integer> slots) {
		if (!owner.isRunning()) {
			return owner + " is not running";
		}
		for (RedisServer node : this.nodes.list()) {
			if (!node.isRunning()) {
				continue;
			}
			ClusterView view = this.nodes.view(node);
			ClusterNodeLine line = view.lineOf(owner.port());
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

}
