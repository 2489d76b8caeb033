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

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.distlock.store.AcquireResult;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for the fair mode of {@link RedisLockClient}: the queue in Redis.
 */
class RedisFairLockIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration PLACE = Duration.ofSeconds(10);

	private static final String QUEUE = RedisLockKeys.of("k").queue();

	private static final String QUEUE_TIMEOUTS = RedisLockKeys.of("k").queueTimeouts();

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
	void freeLockWithoutWaitersIsTakenWithoutQueueing() {
		assertThat(this.client.tryAcquireFair("k", owner(), TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(redis.endpoint().command("EXISTS", QUEUE)).isEqualTo(0L);
	}

	@Test
	void callersOfAHeldLockQueueInArrivalOrderOnce() {
		String holder = owner();
		String first = owner();
		String second = owner();
		this.client.tryAcquire("k", holder, TTL);
		assertThat(this.client.tryAcquireFair("k", first, TTL, PLACE)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isPositive().isLessThanOrEqualTo(TTL));
		this.client.tryAcquireFair("k", second, TTL, PLACE);
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		assertThat(redis.endpoint().command("LRANGE", QUEUE, "0", "-1")).isEqualTo(List.of(first, second));
	}

	@Test
	void freedLockGoesOnlyToTheFirstWaiter() {
		String holder = owner();
		String first = owner();
		String second = owner();
		this.client.tryAcquire("k", holder, TTL);
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		this.client.tryAcquireFair("k", second, TTL, PLACE);
		this.client.release("k", holder);
		assertThat(this.client.tryAcquireFair("k", second, TTL, PLACE)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).as("how long the first waiter's place is kept")
					.isPositive()
					.isLessThanOrEqualTo(PLACE));
		assertThat(this.client.tryAcquireFair("k", first, TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(redis.endpoint().command("LRANGE", QUEUE, "0", "-1")).isEqualTo(List.of(second));
	}

	@Test
	void tryingOnceWithoutAPlaceDoesNotJoinTheQueue() {
		this.client.tryAcquire("k", owner(), TTL);
		assertThat(this.client.tryAcquireFair("k", owner(), TTL, Duration.ZERO)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(redis.endpoint().command("EXISTS", QUEUE)).isEqualTo(0L);
	}

	@Test
	void waiterThatStopsCallingIsDroppedSoItDoesNotBlockTheQueue() throws Exception {
		String holder = owner();
		String crashed = owner();
		String next = owner();
		this.client.tryAcquire("k", holder, TTL);
		this.client.tryAcquireFair("k", crashed, TTL, Duration.ofMillis(100));
		this.client.tryAcquireFair("k", next, TTL, PLACE);
		this.client.release("k", holder);
		Thread.sleep(150);
		assertThat(this.client.tryAcquireFair("k", next, TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(redis.endpoint().command("EXISTS", QUEUE)).isEqualTo(0L);
	}

	@Test
	void queueExpiresWithItsLastPlace() {
		this.client.tryAcquire("k", owner(), TTL);
		this.client.tryAcquireFair("k", owner(), TTL, Duration.ofSeconds(3));
		this.client.tryAcquireFair("k", owner(), TTL, Duration.ofSeconds(5));
		assertThat((Long) redis.endpoint().command("PTTL", QUEUE)).isBetween(4_000L, 5_000L);
		assertThat((Long) redis.endpoint().command("PTTL", QUEUE_TIMEOUTS)).isBetween(4_000L, 5_000L);
	}

	@Test
	void releaseWithFairWaitersWakesTheFirstOfThemByItsToken() {
		String holder = owner();
		String first = owner();
		this.client.tryAcquire("k", holder, TTL);
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		this.client.tryAcquireFair("k", owner(), TTL, PLACE);
		try (RespConnection subscriber = subscribe()) {
			this.client.release("k", holder);
			assertThat(subscriber.read()).isEqualTo(List.of("pmessage", RedisLockKeys.CHANNEL_PATTERN, CHANNEL, first));
		}
	}

	@Test
	void firstWaiterLeavingAFreeLockWakesTheNext() {
		String holder = owner();
		String first = owner();
		String second = owner();
		this.client.tryAcquire("k", holder, TTL);
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		this.client.tryAcquireFair("k", second, TTL, PLACE);
		this.client.release("k", holder);
		try (RespConnection subscriber = subscribe()) {
			assertThat(this.client.leaveQueue("k", first)).isTrue();
			assertThat(subscriber.read())
				.isEqualTo(List.of("pmessage", RedisLockKeys.CHANNEL_PATTERN, CHANNEL, second));
		}
		assertThat(this.client.tryAcquireFair("k", second, TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void leavingTheQueueTwiceOrWithoutAPlaceIsANoOp() {
		String waiter = owner();
		this.client.tryAcquire("k", owner(), TTL);
		this.client.tryAcquireFair("k", waiter, TTL, PLACE);
		assertThat(this.client.leaveQueue("k", waiter)).isTrue();
		assertThat(this.client.leaveQueue("k", waiter)).isFalse();
		assertThat(this.client.leaveQueue("k", owner())).isFalse();
		assertThat(redis.endpoint().command("EXISTS", QUEUE, QUEUE_TIMEOUTS)).isEqualTo(0L);
	}

	@Test
	void droppingAnExpiredFirstWaiterOfAFreeLockWakesTheNewFirst() throws Exception {
		String holder = owner();
		String crashed = owner();
		String first = owner();
		this.client.tryAcquire("k", holder, TTL);
		this.client.tryAcquireFair("k", crashed, TTL, Duration.ofMillis(100));
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		this.client.release("k", holder);
		Thread.sleep(150);
		try (RespConnection subscriber = subscribe()) {
			assertThat(this.client.tryAcquireFair("k", owner(), TTL, PLACE)).isInstanceOf(AcquireResult.Busy.class);
			assertThat(subscriber.read()).isEqualTo(List.of("pmessage", RedisLockKeys.CHANNEL_PATTERN, CHANNEL, first));
		}
	}

	@Test
	void fairLocksWhoseNamesDifferOnlyByBracesHaveSeparateQueues() {
		this.client.tryAcquireFair("x", owner(), TTL, PLACE);
		assertThat(this.client.tryAcquireFair("x", owner(), TTL, PLACE)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.client.tryAcquireFair("{x}", owner(), TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
	}

	private RespConnection subscribe() {
		RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2));
		subscriber.command("PSUBSCRIBE", RedisLockKeys.CHANNEL_PATTERN);
		return subscriber;
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
