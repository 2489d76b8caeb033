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

package io.distlock.redis;

import java.nio.charset.StandardCharsets;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * The stand-in hash tags of {@link RedisLockKeys}: for each hash slot, the first base-36
 * number (in {@code [0-9a-z]}, at most four characters) that hashes to it. Computed once,
 * in about 10 ms, when the first resource needs one: a resource without a hash tag that
 * holds a '}', which cannot be put in braces.
 */
final class SlotTags {

	static final String[] TAGS = compute();

	private SlotTags() {
	}

	private static String[] compute() {
		String[] tags = new String[ClusterSlotHashUtil.SLOT_COUNT];
		int missing = tags.length;
		for (int n = 0; missing > 0; n++) {
			String tag = Integer.toString(n, Character.MAX_RADIX);
			int slot = ClusterSlotHashUtil.calculateSlot(tag.getBytes(StandardCharsets.US_ASCII));
			if (tags[slot] == null) {
				tags[slot] = tag;
				missing--;
			}
		}
		return tags;
	}

}
