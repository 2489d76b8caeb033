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

package io.distlock.fencing.redis;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the fence keys of {@link RedisFencedWrites}: one per data key, in its hash
 * slot.
 */
class RedisFencedWritesFenceKeyTests {

	private static final List<String> KEYS = List.of("x", "{x}", "{x}y", "y{x}", "{{x}}", "{x}}", "{{x}", "{{x}}}",
			"stock:1", "{stock:1}", "stock:{1}", "{stock}:1", "open{brace", "{open{brace", "{open{brace}");

	@Test
	void distinctDataKeysHaveDistinctFenceKeys() {
		Set<String> fenceKeys = new HashSet<>();
		for (String key : KEYS) {
			fenceKeys.add(RedisFencedWrites.fenceKey(key));
		}

		assertThat(fenceKeys).hasSameSizeAs(KEYS).doesNotContainAnyElementsOf(KEYS);
	}

	@Test
	void aFenceKeyIsInItsDataKeysHashSlot() {
		for (String key : KEYS) {
			assertThat(ClusterSlotHashUtil.calculateSlot(RedisFencedWrites.fenceKey(key))).as(key)
				.isEqualTo(ClusterSlotHashUtil.calculateSlot(key));
		}
	}

	@Test
	void keysThatAreNotOneWholeHashTagKeepTheFenceKeysOfEarlierVersions() {
		assertThat(RedisFencedWrites.fenceKey("stock:1")).isEqualTo("{stock:1}\u0000distlock-fence");
		assertThat(RedisFencedWrites.fenceKey("stock:{1}")).isEqualTo("stock:{1}\u0000distlock-fence");
		assertThat(RedisFencedWrites.fenceKey("{stock}:1")).isEqualTo("{stock}:1\u0000distlock-fence");
	}

}
