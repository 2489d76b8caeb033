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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * One line of {@code CLUSTER NODES}: a node's id, port, flags, primary and the slots it
 * owns.
 */
record ClusterNodeLine(String id, int port, Set<String> flags, @Nullable String primaryId, List<int[]> slotRanges) {

	static ClusterNodeLine parse(String text) {
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
				// An importing or migrating slot: still owned by the node listed for it.
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
		return new ClusterNodeLine(fields[0], port, flags, primaryId, ranges);
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
