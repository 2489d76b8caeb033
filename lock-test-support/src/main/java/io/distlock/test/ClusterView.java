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
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The cluster as one node sees it: its {@code CLUSTER NODES} output, parsed into lines
 * and the owner of every slot.
 */
record ClusterView(RedisServer observer, String text, List<ClusterNodeLine> lines, @Nullable String[] slotOwners) {

	static ClusterView parse(RedisServer observer, String text) {
		List<ClusterNodeLine> lines = new ArrayList<>();
		for (String line : text.split("\n")) {
			if (!line.isBlank()) {
				lines.add(ClusterNodeLine.parse(line));
			}
		}
		@Nullable String[] owners = new String[RedisCluster.SLOTS];
		for (ClusterNodeLine line : lines) {
			for (int[] range : line.slotRanges()) {
				Arrays.fill(owners, range[0], range[1] + 1, line.id());
			}
		}
		return new ClusterView(observer, text, List.copyOf(lines), owners);
	}

	@Nullable ClusterNodeLine lineOf(int port) {
		for (ClusterNodeLine line : this.lines) {
			if (line.port() == port) {
				return line;
			}
		}
		return null;
	}

	String idOf(int port) {
		ClusterNodeLine line = lineOf(port);
		if (line == null) {
			throw new IllegalStateException(
					this.observer + " does not know the node on port " + port + "; it sees:\n" + this.text);
		}
		return line.id();
	}

	@Nullable String roleOf(int port) {
		ClusterNodeLine line = lineOf(port);
		return (line != null) ? line.role() : null;
	}

	int lowestSlot(int port) {
		ClusterNodeLine line = lineOf(port);
		if (line == null) {
			return RedisCluster.SLOTS;
		}
		return line.slotRanges().stream().mapToInt((range) -> range[0]).min().orElse(RedisCluster.SLOTS);
	}

	// The slots that the node with the given id owns, in ascending order.
	List<Integer> slotsOwnedBy(String id) {
		List<Integer> slots = new ArrayList<>();
		for (int slot = 0; slot < RedisCluster.SLOTS; slot++) {
			if (id.equals(this.slotOwners[slot])) {
				slots.add(slot);
			}
		}
		return slots;
	}

}
