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
import io.distlock.store.Renewal;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for {@link RedisLockClient} logged in as an ACL user that may use
 * every key but publish on no channel: locks work, only the release notifications are
 * lost (waiters then fall back on their backoff).
 */
class RedisLockClientAclIntegrationTests {

	private static final String USER = "locker";

	private static final String PASSWORD = "secret";

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration PLACE = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void createClientWithoutChannelPermission() {
		redis.endpoint().command("ACL", "SETUSER", USER, "on", ">" + PASSWORD, "~*", "+@all", "resetchannels");
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint(), USER, PASSWORD);
		this.client = new RedisLockClient(this.connectionFactory);
	}

	@AfterEach
	void destroyClient() {
		this.connectionFactory.destroy();
		redis.endpoint().command("ACL", "DELUSER", USER);
	}

	@Test
	void releaseSucceedsAlthoughTheReleaseCannotBePublished() {
		String owner = owner();
		assertThat(this.client.tryAcquire("k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.release("k", owner)).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void renewalsSucceedWithoutChannelPermission() {
		String owner = owner();
		this.client.tryAcquire("k", owner, TTL);
		assertThat(this.client.renew("k", owner, TTL)).isTrue();
		assertThat(this.client.renewAll(List.of(new Renewal("k", owner, TTL)))).containsExactly(true);
	}

	@Test
	void fairReleaseToAWaiterSucceedsAlthoughTheWaiterCannotBeWoken() {
		String holder = owner();
		String waiter = owner();
		this.client.tryAcquireFair("k", holder, TTL, PLACE);
		assertThat(this.client.tryAcquireFair("k", waiter, TTL, PLACE)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.client.release("k", holder)).isTrue();
		assertThat(this.client.tryAcquireFair("k", waiter, TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void leavingTheQueueFirstSucceedsAlthoughTheNextWaiterCannotBeWoken() {
		String holder = owner();
		String first = owner();
		String second = owner();
		this.client.tryAcquireFair("k", holder, TTL, PLACE);
		this.client.tryAcquireFair("k", first, TTL, PLACE);
		this.client.tryAcquireFair("k", second, TTL, PLACE);
		this.client.release("k", holder);
		assertThat(this.client.leaveQueue("k", first)).isTrue();
		assertThat(this.client.tryAcquireFair("k", second, TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void fairAcquireThatDropsAnExpiredWaiterSucceedsAlthoughTheNextWaiterCannotBeWoken() {
		String holder = owner();
		String expired = owner();
		String next = owner();
		this.client.tryAcquireFair("k", holder, TTL, PLACE);
		this.client.tryAcquireFair("k", expired, TTL, PLACE);
		this.client.tryAcquireFair("k", next, TTL, PLACE);
		this.client.release("k", holder);
		// The first waiter's place ran out long ago.
		redis.endpoint().command("ZADD", RedisLockKeys.of("k").queueTimeouts(), "XX", "0", expired);
		assertThat(this.client.tryAcquireFair("k", owner(), TTL, PLACE)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.client.tryAcquireFair("k", next, TTL, PLACE)).isInstanceOf(AcquireResult.Acquired.class);
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
