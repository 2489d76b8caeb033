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

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The nodes of a {@link RedisCluster} and what they say about it: commands over cached
 * connections, {@code CLUSTER NODES} views, and the primaries, replicas and slot owners
 * read from them.
 */
final class ClusterNodes {

	private final List<RedisServer> nodes;

	private final @Nullable String password;

	private final ClusterConnections connections;

	ClusterNodes(List<RedisServer> nodes) {
		this.nodes = List.copyOf(nodes);
		this.password = nodes.get(0).password();
		this.connections = new ClusterConnections(this.password);
	}

	List<RedisServer> list() {
		return this.nodes;
	}

	List<String> addresses() {
		return this.nodes.stream().map(ClusterNodes::address).toList();
	}

	@Nullable String password() {
		return this.password;
	}

	@Nullable Object command(RedisServer node, String... args) {
		return this.connections.command(node, args);
	}

	String id(RedisServer node) {
		return (String) Objects.requireNonNull(command(node, "CLUSTER", "MYID"));
	}

	ClusterView view(RedisServer node) {
		return ClusterView.parse(node, (String) Objects.requireNonNull(command(node, "CLUSTER", "NODES")));
	}

	List<RedisServer> primaries() {
		ClusterView view = view(anyRunning());
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

	List<RedisServer> replicasOf(RedisServer primary) {
		ClusterView view = view(anyRunning());
		String primaryId = view.idOf(primary.port());
		return view.lines()
			.stream()
			.filter((line) -> primaryId.equals(line.primaryId()))
			.map(this::server)
			.filter(Objects::nonNull)
			.map(Objects::requireNonNull)
			.toList();
	}

	RedisServer primaryForSlot(int slot) {
		ClusterView view = view(anyRunning());
		String owner = view.slotOwners()[slot];
		for (ClusterNodeLine line : view.lines()) {
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

	List<Integer> slotsOf(RedisServer primary) {
		checkNode(primary);
		ClusterView view = view(anyRunning());
		List<Integer> slots = view.slotsOwnedBy(view.idOf(primary.port()));
		if (slots.isEmpty()) {
			throw new IllegalStateException(primary + " owns no slots");
		}
		return slots;
	}

	@Nullable RedisServer server(ClusterNodeLine line) {
		for (RedisServer node : this.nodes) {
			if (node.port() == line.port()) {
				return node;
			}
		}
		return null;
	}

	@Nullable RedisServer serverById(ClusterView view, String id) {
		for (ClusterNodeLine line : view.lines()) {
			if (line.id().equals(id)) {
				return server(line);
			}
		}
		return null;
	}

	void checkNode(RedisServer node) {
		if (!this.nodes.contains(node)) {
			throw new IllegalArgumentException(node + " is not a node of " + this);
		}
	}

	// The CLUSTER NODES output of every node, for failure messages.
	String describe() {
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

	void closeConnections() {
		this.connections.close();
	}

	@Override
	public String toString() {
		return "Redis Cluster of " + addresses();
	}

	private RedisServer anyRunning() {
		return this.nodes.stream()
			.filter(RedisServer::isRunning)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No node of " + this + " is running"));
	}

	private static String address(RedisServer node) {
		return RedisServer.HOST + ":" + node.port();
	}

}
