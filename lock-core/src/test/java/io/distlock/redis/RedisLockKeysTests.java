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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RedisLockKeys}.
 */
class RedisLockKeysTests {

	/**
	 * Keys built to collide under a naive naming scheme: a resource named like another's
	 * derived names, with and without hash tags, braces that make no tag, and the
	 * resource a hash-based tag would produce.
	 */
	private static final List<String> ADVERSARIAL_KEYS = List.of("x", "{x}", "x:fence", "{x}:fence", "{x}:queue",
			"{x}:queue-timeouts", "{t}:42", "{t}:42:fence", "{t}:42:queue", "{t}:42:queue-timeouts", "{t}:42:channel",
			"order:42", "{order:42}:fence", "{order:42}:queue", "a}b", "{}x", "{}", "}{", "{", "}", "{{x}}", "}}}",
			"{a}{b}", "{a{b}c}", "{a{b}", "{" + Integer.toHexString("a}b".hashCode()) + "}a}b", "fence", "queue",
			"ключ 🔒", "{ключ}}", "*?[a]", "distlock:released:{x}", "{x}:read-holds", "{x}:writer-waiting",
			"read-holds", "writer-waiting");

	static Stream<String> resources() {
		// With the default prefix, an empty one, and one full of braces.
		return Stream.of("lock:", "", "{", "}", "{p}", "}{")
			.flatMap((prefix) -> ADVERSARIAL_KEYS.stream().map((key) -> prefix + key))
			.distinct();
	}

	@Test
	void keysOfAllResourcesArePairwiseDistinct() {
		Map<String, String> owners = new HashMap<>();
		resources().forEach((resource) -> {
			RedisLockKeys keys = RedisLockKeys.of(resource);
			for (String name : List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts(), keys.readHolds(),
					keys.writerWaiting())) {
				String owner = owners.putIfAbsent(name, resource);
				assertThat(owner).as("'%s' is a name of '%s' and of '%s'", name, resource, owner).isNull();
			}
		});
	}

	@Test
	void releaseChannelsOfAllResourcesArePairwiseDistinct() {
		List<String> channels = new ArrayList<>();
		resources().forEach((resource) -> channels.add(RedisLockKeys.of(resource).channel()));
		assertThat(channels).doesNotHaveDuplicates();
	}

	@ParameterizedTest
	@MethodSource("resources")
	void everyNameOfOneLockSharesTheLockKeysHashSlot(String resource) {
		RedisLockKeys keys = RedisLockKeys.of(resource);
		int slot = slot(keys.lock());
		assertThat(slot(keys.fence())).isEqualTo(slot);
		assertThat(slot(keys.queue())).isEqualTo(slot);
		assertThat(slot(keys.queueTimeouts())).isEqualTo(slot);
		assertThat(slot(keys.readHolds())).isEqualTo(slot);
		assertThat(slot(keys.writerWaiting())).isEqualTo(slot);
		assertThat(slot(keys.channel())).isEqualTo(slot);
	}

	@ParameterizedTest
	@MethodSource("resources")
	void readHoldsAloneAreNamedAsAmongAllNames(String resource) {
		assertThat(RedisLockKeys.readHoldsOf(resource)).isEqualTo(RedisLockKeys.of(resource).readHolds());
	}

	@ParameterizedTest
	@MethodSource("resources")
	void lockKeyIsTheResourceNameItself(String resource) {
		assertThat(RedisLockKeys.of(resource).lock()).isEqualTo(resource);
	}

	@ParameterizedTest
	@MethodSource("resources")
	void everyReleaseChannelMatchesTheOnePatternSubscription(String resource) {
		String channel = RedisLockKeys.of(resource).channel();
		assertThat(RedisLockKeys.CHANNEL_PATTERN).isEqualTo(RedisLockKeys.CHANNEL_PREFIX + "*");
		assertThat(channel).startsWith(RedisLockKeys.CHANNEL_PREFIX).contains(resource);
	}

	@Test
	void namesOfAResourceInUseAreDerivedOnce() {
		// A lock's release and renewals ask for the names its acquisition derived.
		assertThat(RedisLockKeys.of("lock:order:7")).isSameAs(RedisLockKeys.of("lock:order:7"));
	}

	@Test
	void resourceWithAControlCharacterIsRefusedEveryTimeItIsAskedFor() {
		for (int i = 0; i < 2; i++) {
			assertThatIllegalArgumentException().isThrownBy(() -> RedisLockKeys.of("lock:a\u001fb"));
		}
	}

	@Test
	void lockKeyStaysReadable() {
		assertThat(RedisLockKeys.of("lock:order:42").lock()).isEqualTo("lock:order:42");
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:line\nbreak", "lock:\u0000", "\u001f", "lock:\u007f", "lock:\u0085" })
	void resourceWithAControlCharacterIsRejected(String resource) {
		assertThatIllegalArgumentException().isThrownBy(() -> RedisLockKeys.of(resource))
			.withMessageContaining("control character");
	}

	@Test
	void everyStandInTagHashesToItsSlotAndHoldsNoBrace() {
		String[] tags = SlotTags.TAGS;
		assertThat(tags).hasSize(ClusterSlotHashUtil.SLOT_COUNT);
		for (int slot = 0; slot < tags.length; slot++) {
			assertThat(tags[slot]).matches("[0-9a-z]+");
			assertThat(slot(tags[slot])).isEqualTo(slot);
		}
	}

	@Test
	void permitsOfAllResourcesAreDistinctFromEveryOtherName() {
		Map<String, String> owners = new HashMap<>();
		resources().forEach((resource) -> {
			RedisLockKeys keys = RedisLockKeys.of(resource);
			for (String name : List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts(), keys.permits())) {
				String owner = owners.putIfAbsent(name, resource);
				assertThat(owner).as("'%s' is a name of '%s' and of '%s'", name, resource, owner).isNull();
			}
		});
	}

	@ParameterizedTest
	@MethodSource("resources")
	void permitsShareTheLockKeysHashSlot(String resource) {
		RedisLockKeys keys = RedisLockKeys.of(resource);
		assertThat(slot(keys.permits())).isEqualTo(slot(keys.lock()));
	}

	@ParameterizedTest
	@MethodSource("resources")
	void permitsLeadBackToTheirResourceAndNoOtherNameDoes(String resource) {
		RedisLockKeys keys = RedisLockKeys.of(resource);
		assertThat(RedisLockKeys.resourceOfPermits(keys.permits())).isEqualTo(resource);
		for (String name : List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts(), keys.channel())) {
			assertThat(RedisLockKeys.resourceOfPermits(name)).as(name).isNull();
		}
	}

	@Test
	void permitsNameWithAForeignTagIsNoPermitsName() {
		String forged = "{other}" + RedisLockKeys.SEPARATOR + "permits" + RedisLockKeys.SEPARATOR + "lock:x";
		assertThat(RedisLockKeys.resourceOfPermits(forged)).isNull();
		assertThat(RedisLockKeys.resourceOfPermits(RedisLockKeys.of("lock:x").permits())).isEqualTo("lock:x");
	}

	private static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key.getBytes(StandardCharsets.UTF_8));
	}

}
