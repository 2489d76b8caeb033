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

package io.distlock;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.annotation.DistributedLocked;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Bad and unusual input over the public surface, end to end on a real redis-server: each
 * input gets either correct behaviour or a clear error, and none leaves a lock behind or
 * touches another key. Bad annotation attributes are covered at startup by
 * {@code DistributedLockedStartupFailureTests}.
 */
@SpringBootTest(classes = BadInputIntegrationTests.TestApplication.class)
@DirtiesContext
class BadInputIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@Autowired
	private LockTemplate lockTemplate;

	@Autowired
	private Locked locked;

	@Autowired
	private StringRedisTemplate redisTemplate;

	@BeforeEach
	void putABystanderKey() {
		this.redisTemplate.opsForValue().set("lock:bystander", "application data");
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { " ", "\t\n" })
	void nullOrBlankKeyIsRejectedNamingTheArgument(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.lockTemplate.tryAcquire(key, TTL, Duration.ZERO))
			.withMessageStartingWith("'key' must not be");
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void tenKilobyteKeyIsRejectedNamingTheArgument() {
		String key = "k".repeat(10 * 1024);
		assertThatIllegalArgumentException().isThrownBy(() -> this.lockTemplate.tryAcquire(key, TTL, Duration.ZERO))
			.withMessageStartingWith("'key' must be at most 1024 bytes in UTF-8 but was 10240 bytes");
		assertNoLockLeftAndBystanderIntact();
	}

	@ParameterizedTest
	@ValueSource(strings = { "line\nbreak", "nul\u0000", "unit\u001fseparator" })
	void keyWithAControlCharacterIsRejectedNamingTheArgument(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.lockTemplate.tryAcquire(key, TTL, Duration.ZERO))
			.withMessageStartingWith("'key' must not contain control characters");
		assertNoLockLeftAndBystanderIntact();
	}

	@ParameterizedTest
	@ValueSource(strings = { "ключ 🔒 鍵", "{braces}", "a{b}c", "}{", "{}", "glob*", "glob?", "[a-z]", "*", "colons:a:b",
			"bystander-*", "{t}:42:fence", "x:\u00a0" })
	void unusualKeysLockExactlyThemselves(String key) {
		try (LockHandle handle = this.lockTemplate.tryAcquire(key, TTL, Duration.ZERO).orElseThrow()) {
			assertThat(handle.key()).isEqualTo(key);
			assertThat(handle.isHeld()).isTrue();
			assertThat(this.lockTemplate.tryAcquire(key, TTL, Duration.ZERO)).as("held against a second caller")
				.isEmpty();
			assertThat(this.lockTemplate.tryAcquire(key + "x", TTL, Duration.ZERO).map((other) -> {
				other.close();
				return true;
			})).as("a different key is independent").contains(true);
		}
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void hugeTtlIsAcceptedAndReleased() {
		try (LockHandle handle = this.lockTemplate.tryAcquire("k", Duration.ofDays(365), Duration.ZERO).orElseThrow()) {
			assertThat(this.redisTemplate.getExpire("lock:k")).isGreaterThan(Duration.ofDays(364).toSeconds());
		}
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void longestAcceptedTtlIsRenewedAndReleased() {
		try (LockHandle handle = this.lockTemplate.tryAcquire("k", LockRequest.MAX_TTL, Duration.ZERO).orElseThrow()) {
			assertThat(handle.isHeld()).isTrue();
			assertThat(this.redisTemplate.getExpire("lock:k")).isGreaterThan(Duration.ofDays(364).toSeconds());
		}
		assertNoLockLeftAndBystanderIntact();
	}

	@ParameterizedTest
	@ValueSource(longs = { 366, 300_000_000 })
	void ttlAboveTheLongestLeaseIsRejectedNamingTheArgument(long days) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.lockTemplate.tryAcquire("k", Duration.ofDays(days), Duration.ZERO))
			.withMessageStartingWith("'ttl' must be at most 365 days");
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void waitTimeBeyondAnyDeadlineTakesAFreeLock() {
		Duration forever = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
		try (LockHandle handle = this.lockTemplate.tryAcquire("k", TTL, forever).orElseThrow()) {
			assertThat(handle.isHeld()).isTrue();
		}
		assertNoLockLeftAndBystanderIntact();
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, -1 })
	void zeroOrNegativeTtlIsRejectedNamingTheArgument(long millis) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.lockTemplate.tryAcquire("k", Duration.ofMillis(millis), Duration.ZERO))
			.withMessageStartingWith("'ttl' must be at least 1ms");
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void negativeWaitTimeIsRejectedNamingTheArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.lockTemplate.tryAcquire("k", TTL, Duration.ofSeconds(-1)))
			.withMessageStartingWith("'waitTime' must not be negative");
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void annotationWithHugeAndDefaultedDurationsWorks() {
		assertThat(this.locked.hugeTtl()).isGreaterThan(Duration.ofDays(364).toMillis());
		assertThat(this.locked.longestRenewedTtl()).isGreaterThan(Duration.ofDays(364).toMillis());
		assertThat(this.locked.longestWaitTime()).isGreaterThan(Duration.ofDays(364).toMillis());
		assertThat(this.locked.defaultTtl()).isBetween(29_000L, 30_000L);
		assertNoLockLeftAndBystanderIntact();
	}

	@Test
	void keyExpressionThatThrowsFailsTheCallWithoutRunningIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.locked.throwingKey(new Hostile()))
			.withMessageContaining("'#value.explode()'")
			.withMessageContaining("the method was not run");
		assertNotRunAndNoLockLeft();
	}

	@Test
	void keyExpressionReturningACollectionFailsTheCallWithoutRunningIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.locked.collectionKey(List.of("a", "b")))
			.withMessageContaining("a lock key must be a single value");
		assertNotRunAndNoLockLeft();
	}

	@Test
	void keyWithAHostileToStringFailsTheCallWithoutRunningIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.locked.objectKey(new Hostile()))
			.withMessageContaining("could not be turned into a String");
		assertNotRunAndNoLockLeft();
	}

	@Test
	void keyWithAHugeToStringFailsTheCallWithoutRunningIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.locked.objectKey("x".repeat(10 * 1024)))
			.withMessageContaining("gave an invalid lock key: 'key' must be at most 1024 bytes");
		assertNotRunAndNoLockLeft();
	}

	@Test
	void keyEvaluatingToBlankFailsTheCallWithoutRunningIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.locked.objectKey("  "))
			.withMessageContaining("evaluated to a blank String");
		assertNotRunAndNoLockLeft();
	}

	private void assertNotRunAndNoLockLeft() {
		assertThat(this.locked.runs()).hasValue(0);
		assertNoLockLeftAndBystanderIntact();
	}

	private void assertNoLockLeftAndBystanderIntact() {
		Set<String> keys = this.redisTemplate.keys("*");
		assertThat(keys).allMatch((key) -> key.equals("lock:bystander") || key.contains("\u001ffence\u001f"),
				"only fencing counters and the bystander remain");
		assertThat(this.redisTemplate.opsForValue().get("lock:bystander")).isEqualTo("application data");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Locked locked(StringRedisTemplate redis) {
			return new Locked(redis);
		}

	}

	static class Locked {

		private final StringRedisTemplate redis;

		private final AtomicInteger runs = new AtomicInteger();

		Locked(StringRedisTemplate redis) {
			this.redis = redis;
		}

		public AtomicInteger runs() {
			return this.runs;
		}

		@DistributedLocked(key = "huge", ttl = "365d", autoRenew = false)
		public long hugeTtl() {
			return this.redis.getExpire("lock:huge", java.util.concurrent.TimeUnit.MILLISECONDS);
		}

		@DistributedLocked(key = "renewed", ttl = "365d")
		public long longestRenewedTtl() {
			return this.redis.getExpire("lock:renewed", java.util.concurrent.TimeUnit.MILLISECONDS);
		}

		@DistributedLocked(key = "waiting", ttl = "365d", waitTime = "9223372036854775807ms")
		public long longestWaitTime() {
			return this.redis.getExpire("lock:waiting", java.util.concurrent.TimeUnit.MILLISECONDS);
		}

		@DistributedLocked(key = "default", ttl = "", waitTime = "", autoRenew = false)
		public long defaultTtl() {
			return this.redis.getExpire("lock:default", java.util.concurrent.TimeUnit.MILLISECONDS);
		}

		@DistributedLocked(key = "#value.explode()")
		public void throwingKey(Hostile value) {
			this.runs.incrementAndGet();
		}

		@DistributedLocked(key = "#values")
		public void collectionKey(List<String> values) {
			this.runs.incrementAndGet();
		}

		@DistributedLocked(key = "#value")
		public void objectKey(Object value) {
			this.runs.incrementAndGet();
		}

	}

	static class Hostile {

		public String explode() {
			throw new IllegalStateException("no key today");
		}

		@Override
		public String toString() {
			throw new IllegalStateException("hostile toString");
		}

	}

}
