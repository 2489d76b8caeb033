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

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockState;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RedisVersion;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests for inspecting and force-releasing locks with {@link RedisLockClient}
 * against a real redis-server, for the fair queue, the other key types and the release
 * messages particular to Redis. The inspection contract runs in
 * {@link RedisStoreContractIntegrationTests}.
 */
class RedisLockClientInspectionIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration PLACE = Duration.ofSeconds(10);

	private static final String QUEUE = RedisLockKeys.of("k").queue();

	private static final String CHANNEL = RedisLockKeys.of("k").channel();

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void createClient() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
	}

	@AfterEach
	void destroyClient() {
		this.connectionFactory.destroy();
	}

	@Test
	void inspectCountsTheFairWaitersWhosePlacesHaveNotExpired() throws Exception {
		this.client.tryAcquire("k", owner(), TTL);
		this.client.tryAcquireFair("k", owner(), TTL, PLACE);
		this.client.tryAcquireFair("k", owner(), TTL, PLACE);
		this.client.tryAcquireFair("k", owner(), TTL, Duration.ofMillis(100));
		assertThat(this.client.inspect("k").fairWaiters()).isEqualTo(3);
		Thread.sleep(150);
		assertThat(this.client.inspect("k").fairWaiters()).isEqualTo(2);
	}

	@Test
	void inspectChangesNothingNotEvenTheExpiredPlacesOfTheQueue() throws Exception {
		this.client.tryAcquire("k", owner(), TTL);
		String expired = owner();
		String waiting = owner();
		this.client.tryAcquireFair("k", expired, TTL, Duration.ofMillis(100));
		this.client.tryAcquireFair("k", waiting, TTL, PLACE);
		Thread.sleep(150);
		assertThat(this.client.inspect("k").fairWaiters()).isEqualTo(1);
		assertThat(redis.endpoint().command("LRANGE", QUEUE, "0", "-1")).isEqualTo(List.of(expired, waiting));
	}

	@Test
	void keySetWithoutExpiryIsHeldWithoutARemainingLease() {
		redis.endpoint().command("SET", "k", "set by someone else");
		LockState state = this.client.inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.remainingLease()).isNull();
		assertThat(state.holder()).isNotNull();
	}

	@Test
	void keyOfAnotherTypeIsHeldByNoHolderAndCanBeForceReleased() {
		redis.endpoint().command("HSET", "k", "field", "value");
		LockState state = this.client.inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.holder()).isNull();
		assertThat(this.client.forceRelease("k")).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void forceReleasePublishesTheResourceOnTheLockChannel() {
		this.client.tryAcquire("k", owner(), TTL);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			this.client.forceRelease("k");
			assertThat(subscriber.read()).isEqualTo(List.of("message", CHANNEL, "k"));
		}
	}

	@Test
	void forceReleaseWithShardedMessagesPublishesOnTheShardedChannelFromRedis7() {
		this.client.setShardedReleaseMessages(true);
		this.client.tryAcquire("k", owner(), TTL);
		boolean sharded = RedisVersion.majorVersion() >= 7;
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command(sharded ? "SSUBSCRIBE" : "SUBSCRIBE", CHANNEL);
			this.client.forceRelease("k");
			assertThat(subscriber.read()).isEqualTo(List.of(sharded ? "smessage" : "message", CHANNEL, "k"));
		}
	}

	@Test
	void forceReleaseKeepsTheFairQueueAndWakesItsFirstWaiterWhoThenTakesTheLockBeforeTheNext() {
		String first = owner();
		String second = owner();
		this.client.tryAcquireFair("k", owner(), TTL, PLACE);
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		this.client.tryAcquireFair("k", second, TTL, PLACE);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			assertThat(this.client.forceRelease("k")).isTrue();
			assertThat(subscriber.read()).isEqualTo(List.of("message", CHANNEL, first));
		}
		assertThat(redis.endpoint().command("LRANGE", QUEUE, "0", "-1")).isEqualTo(List.of(first, second));
		assertThat(this.client.inspect("k").fairWaiters()).isEqualTo(2);
		assertThat(this.client.tryAcquireFair("k", second, TTL, PLACE)).as("second in line")
			.isInstanceOf(AcquireResult.Busy.class);
		acquired(this.client.tryAcquireFair("k", first, TTL, PLACE));
	}

	@Test
	void forceReleaseOfAFreeKeyPublishesNothing() {
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofMillis(300))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			assertThat(this.client.forceRelease("k")).isFalse();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(subscriber::read);
		}
	}

	@Test
	void forceReleaseOfReadHoldsAndPermitsPublishesTheResourceAndLeavesNoNameBehind() {
		this.client.tryAcquireRead("k", owner(), TTL);
		this.client.tryAcquire("k", owner(), TTL);
		this.client.tryAcquirePermit("k", owner(), TTL, 3);
		RedisLockKeys keys = RedisLockKeys.of("k");
		assertThat(redis.endpoint().command("EXISTS", keys.readHolds(), keys.writerWaiting(), keys.permits()))
			.isEqualTo(3L);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			assertThat(this.client.forceRelease("k")).isTrue();
			assertThat(subscriber.read()).isEqualTo(List.of("message", CHANNEL, "k"));
		}
		assertThat(redis.endpoint().command("EXISTS", "k", keys.readHolds(), keys.writerWaiting(), keys.permits()))
			.isEqualTo(0L);
		assertThat(redis.endpoint().command("EXISTS", keys.fence())).as("the fencing counter is kept").isEqualTo(1L);
	}

	@Test
	void forceReleaseOfAWriterWaitingMarkerAloneRemovesItButPublishesNothing() {
		String reader = owner();
		this.client.tryAcquireRead("k", reader, TTL);
		this.client.tryAcquire("k", owner(), TTL);
		// The marker outlives the reader that made the writer wait.
		redis.endpoint().command("DEL", RedisLockKeys.of("k").readHolds());
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofMillis(300))) {
			subscriber.command("SUBSCRIBE", CHANNEL);
			assertThat(this.client.forceRelease("k")).isFalse();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(subscriber::read);
		}
		assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").writerWaiting())).isEqualTo(0L);
	}

	@Test
	void readHoldsAndPermitsOverwrittenWithAnotherTypeCountNoneAndAreForceReleased() {
		RedisLockKeys keys = RedisLockKeys.of("k");
		redis.endpoint().command("SET", keys.readHolds(), "not a sorted set");
		redis.endpoint().command("SET", keys.permits(), "not a sorted set");
		LockState state = this.client.inspect("k");
		assertThat(state.readHolds()).isZero();
		assertThat(state.permitHolders()).isZero();
		assertThat(this.client.forceRelease("k")).isFalse();
		assertThat(redis.endpoint().command("EXISTS", keys.readHolds(), keys.permits())).isEqualTo(0L);
	}

	@Test
	void inspectChangesNothingNotEvenExpiredReadHoldsAndPermits() throws Exception {
		String reader = owner();
		String holder = owner();
		this.client.tryAcquireRead("k", reader, Duration.ofMillis(100));
		this.client.tryAcquireRead("k", owner(), TTL);
		this.client.tryAcquirePermit("k", holder, Duration.ofMillis(100), 3);
		this.client.tryAcquirePermit("k", owner(), TTL, 3);
		Thread.sleep(150);
		LockState state = this.client.inspect("k");
		assertThat(state.readHolds()).isEqualTo(1);
		assertThat(state.permitHolders()).isEqualTo(1);
		RedisLockKeys keys = RedisLockKeys.of("k");
		assertThat(redis.endpoint().command("ZCARD", keys.readHolds())).isEqualTo(2L);
		assertThat(redis.endpoint().command("ZCARD", keys.permits())).isEqualTo(2L);
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
