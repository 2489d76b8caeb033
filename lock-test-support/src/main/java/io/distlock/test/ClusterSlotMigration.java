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
import java.util.Objects;

/**
 * The mechanics of moving one slot between primaries, behind
 * {@link RedisCluster.SlotMigration}: {@code CLUSTER SETSLOT} on both sides, keys moved
 * with {@code MIGRATE} in batches, and the new owner made known to every primary.
 */
final class ClusterSlotMigration {

	private static final int MIGRATE_BATCH = 100;

	private final ClusterNodes nodes;

	private final ClusterAwaiter awaiter;

	private final int slot;

	private final RedisServer source;

	private final RedisServer target;

	private ClusterSlotMigration(ClusterNodes nodes, ClusterAwaiter awaiter, int slot, RedisServer source,
			RedisServer target) {
		this.nodes = nodes;
		this.awaiter = awaiter;
		this.slot = slot;
		this.source = source;
		this.target = target;
	}

	/**
	 * Make the target import the slot and its current owner migrate it.
	 */
	static ClusterSlotMigration begin(ClusterNodes nodes, ClusterAwaiter awaiter, int slot, RedisServer target) {
		RedisServer source = nodes.primaryForSlot(slot);
		if (source.equals(target)) {
			throw new IllegalArgumentException(target + " already owns slot " + slot);
		}
		String s = Integer.toString(slot);
		nodes.command(target, "CLUSTER", "SETSLOT", s, "IMPORTING", nodes.id(source));
		nodes.command(source, "CLUSTER", "SETSLOT", s, "MIGRATING", nodes.id(target));
		return new ClusterSlotMigration(nodes, awaiter, slot, source, target);
	}

	int slot() {
		return this.slot;
	}

	RedisServer source() {
		return this.source;
	}

	RedisServer target() {
		return this.target;
	}

	boolean moveKey(String key) {
		if (RedisCluster.slot(key) != this.slot) {
			throw new IllegalArgumentException(key + " is in slot " + RedisCluster.slot(key) + ", not " + this.slot);
		}
		return migrate(List.of(key));
	}

	int moveKeys() {
		int moved = 0;
		while (true) {
			List<?> keys = (List<?>) Objects.requireNonNull(this.nodes.command(this.source, "CLUSTER", "GETKEYSINSLOT",
					Integer.toString(this.slot), Integer.toString(MIGRATE_BATCH)));
			if (keys.isEmpty()) {
				return moved;
			}
			migrate(keys.stream().map(String.class::cast).toList());
			moved += keys.size();
		}
	}

	void finish() {
		moveKeys();
		String s = Integer.toString(this.slot);
		String targetId = this.nodes.id(this.target);
		// Target first, so it owns the slot before the source stops redirecting to it.
		this.nodes.command(this.target, "CLUSTER", "SETSLOT", s, "NODE", targetId);
		this.nodes.command(this.source, "CLUSTER", "SETSLOT", s, "NODE", targetId);
		for (RedisServer primary : this.nodes.primaries()) {
			if (!primary.equals(this.target) && !primary.equals(this.source)) {
				this.nodes.command(primary, "CLUSTER", "SETSLOT", s, "NODE", targetId);
			}
		}
		this.awaiter.awaitOwner(this.target, List.of(this.slot),
				"agree that " + this.target + " owns slot " + this.slot);
	}

	private boolean migrate(List<String> keys) {
		List<String> command = new ArrayList<>(
				List.of("MIGRATE", RedisServer.HOST, Integer.toString(this.target.port()), "", "0",
						Long.toString(ClusterConnections.COMMAND_TIMEOUT.toMillis() / 2)));
		String password = this.nodes.password();
		if (password != null) {
			command.addAll(List.of("AUTH", password));
		}
		command.add("KEYS");
		command.addAll(keys);
		return "OK".equals(this.nodes.command(this.source, command.toArray(String[]::new)));
	}

}
