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

import java.util.List;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisLockKeys}.
 */
class RedisLockKeysTests {

	@ParameterizedTest
	@ValueSource(strings = { "lock:orders:42", "lock:{user-7}:cart", "lock:a{b", "lock:a}b", "{}x", "lock:{}x}", "}",
			"{", "lock:ключ 🔒", "lock:*?[a]", "lock:line\nbreak" })
	void everyNameOfOneLockSharesTheLockKeysHashSlot(String resource) {
		RedisLockKeys keys = RedisLockKeys.of(resource);
		int slot = SlotHash.getSlot(keys.lock());
		assertThat(SlotHash.getSlot(keys.fence())).isEqualTo(slot);
		assertThat(SlotHash.getSlot(keys.queue())).isEqualTo(slot);
		assertThat(SlotHash.getSlot(keys.queueTimeouts())).isEqualTo(slot);
		assertThat(SlotHash.getSlot(keys.channel())).isEqualTo(slot);
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:orders:42", "lock:{user-7}:cart", "lock:a}b", "{", "lock:*?[a]" })
	void everyReleaseChannelMatchesTheOnePatternSubscription(String resource) {
		String channel = RedisLockKeys.of(resource).channel();
		assertThat(RedisLockKeys.CHANNEL_PATTERN).isEqualTo(RedisLockKeys.CHANNEL_PREFIX + "*");
		assertThat(channel).startsWith(RedisLockKeys.CHANNEL_PREFIX).contains(resource);
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:orders:42", "lock:{user-7}:cart", "lock:a}b" })
	void everyNameOfOneLockDiffersFromTheOthers(String resource) {
		RedisLockKeys keys = RedisLockKeys.of(resource);
		assertThat(List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts(), keys.channel()))
			.doesNotHaveDuplicates();
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:orders:42", "lock:{user-7}:cart", "lock:a{b", "lock:ключ 🔒" })
	void lockKeyIsTheResourceNameItself(String resource) {
		assertThat(RedisLockKeys.of(resource).lock()).isEqualTo(resource);
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:orders:42", "lock:{user-7}:cart", "lock:a}b", "{}x" })
	void namesOfDifferentResourcesDiffer(String resource) {
		RedisLockKeys keys = RedisLockKeys.of(resource);
		RedisLockKeys other = RedisLockKeys.of(resource + "x");
		assertThat(keys.lock()).isNotEqualTo(other.lock()).isNotEqualTo(keys.fence());
		assertThat(keys.fence()).isNotEqualTo(other.fence());
		assertThat(keys.queue()).isNotEqualTo(other.queue());
		assertThat(keys.queueTimeouts()).isNotEqualTo(other.queueTimeouts());
		assertThat(keys.channel()).isNotEqualTo(other.channel());
	}

}
