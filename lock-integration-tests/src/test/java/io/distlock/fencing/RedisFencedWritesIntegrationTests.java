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

package io.distlock.fencing;

import java.util.List;

import io.distlock.fencing.redis.RedisFencedWrites;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for {@link RedisFencedWrites} on a real redis-server, and on a real
 * Redis Cluster for keys with and without hash tags.
 */
class RedisFencedWritesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private RedisFencedWrites writes;

	private StringRedisTemplate template;

	@BeforeEach
	void connect() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.writes = new RedisFencedWrites(this.connectionFactory);
		this.template = new StringRedisTemplate(this.connectionFactory);
	}

	@AfterEach
	void disconnect() {
		this.connectionFactory.destroy();
	}

	@Test
	void aLowerTokenIsRefusedAndLeavesTheLaterHoldersValue() {
		this.writes.set("stock:1", "10", 20);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.writes.set("stock:1", "99", 19))
			.satisfies((ex) -> {
				assertThat(ex.getResource()).isEqualTo("stock:1");
				assertThat(ex.getRecordedToken()).isEqualTo(20);
			});
		assertThat(this.template.opsForValue().get("stock:1")).isEqualTo("10");
	}

	@Test
	void anEqualOrHigherTokenWrites() {
		this.writes.set("stock:2", "1", 5);
		this.writes.set("stock:2", "2", 5);
		this.writes.set("stock:2", "3", 6);

		assertThat(this.template.opsForValue().get("stock:2")).isEqualTo("3");
	}

	@Test
	void tokensAreComparedExactlyBeyondWhatADoubleHolds() {
		long high = (1L << 60) + 1;
		this.writes.set("stock:3", "high", high);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.writes.set("stock:3", "lower", high - 1));
		assertThat(this.template.opsForValue().get("stock:3")).isEqualTo("high");
	}

	@Test
	void hashFieldsAreFenced() {
		this.writes.setField("order:{7}", "status", "shipped", 9);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.writes.setField("order:{7}", "status", "cancelled", 8));
		assertThat(this.template.opsForHash().get("order:{7}", "status")).isEqualTo("shipped");
	}

	@Test
	void aDeleteKeepsItsFenceSoAStaleHolderCannotWriteTheKeyBack() {
		this.writes.set("session:1", "open", 3);
		this.writes.delete("session:1", 4);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.writes.set("session:1", "open", 3));
		assertThat(this.template.hasKey("session:1")).isFalse();
	}

	@Test
	void aKeyAndTheSameKeyInBracesHaveFencesOfTheirOwn() {
		this.writes.set("stock:4", "plain", 50);
		this.writes.set("{stock:4}", "tagged", 10);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.writes.set("{stock:4}", "stale", 9))
			.satisfies((ex) -> assertThat(ex.getRecordedToken()).isEqualTo(10));
		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.writes.set("stock:4", "stale", 49))
			.satisfies((ex) -> assertThat(ex.getRecordedToken()).isEqualTo(50));
		assertThat(this.template.opsForValue().multiGet(List.of("stock:4", "{stock:4}"))).containsExactly("plain",
				"tagged");
	}

	@Test
	void keysThatNoFenceKeyCanShareASlotWithAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.writes.set("a}b", "x", 1))
			.withMessageContaining("hash tag");
		assertThatIllegalArgumentException().isThrownBy(() -> this.writes.set("{x}\u001ffence\u001fx", "x", 1))
			.withMessageContaining("control characters");
	}

	@Test
	void onARedisClusterKeysWithAndWithoutHashTagsAreFenced() {
		try (RedisCluster cluster = RedisCluster.start(3, 0)) {
			LettuceConnectionFactory clustered = RedisConnections.connectionFactory(cluster);
			try {
				RedisFencedWrites fenced = new RedisFencedWrites(clustered);
				// Descending tokens: a fence shared by two of these keys would refuse the
				// latter.
				long token = 100;
				for (String key : List.of("plain:1", "tagged:{user:2}:name", "{x}", "x", "open{brace")) {
					long written = token;
					fenced.set(key, "v", written);
					assertThatExceptionOfType(FencingTokenRejectedException.class)
						.isThrownBy(() -> fenced.set(key, "stale", written - 1))
						.satisfies((ex) -> assertThat(ex.getRecordedToken()).isEqualTo(written));
					assertThat(new StringRedisTemplate(clustered).opsForValue().get(key)).isEqualTo("v");
					token -= 10;
				}
			}
			finally {
				RedisConnections.destroy(clustered);
			}
		}
	}

}
