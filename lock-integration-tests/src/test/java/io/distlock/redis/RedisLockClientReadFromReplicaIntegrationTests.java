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

import io.distlock.store.AcquireResult;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import io.lettuce.core.ReadFrom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that {@link RedisLockClient#isHeld} asks the primary even when the connection
 * factory sends reads to a replica ({@code spring.data.redis.lettuce.read-from}): a
 * replica that lags would report a held lock as lost, or a lost one as held.
 */
class RedisLockClientReadFromReplicaIntegrationTests {

	private static final Duration TTL = Duration.ofMinutes(1);

	private static RedisServer primary;

	private static RedisServer replica;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeAll
	static void startPrimaryAndReplica() {
		primary = RedisServer.start();
		replica = RedisServer.startReplicaOf(primary);
	}

	@AfterAll
	static void stopServers() {
		replica.close();
		primary.close();
	}

	@BeforeEach
	void createClientReadingFromTheReplica() {
		primary.flushAll();
		primary.awaitReplicasInSync(1);
		RedisStaticMasterReplicaConfiguration configuration = new RedisStaticMasterReplicaConfiguration(primary.host(),
				primary.port());
		configuration.addNode(replica.host(), replica.port());
		if (primary.password() != null) {
			configuration.setPassword(primary.password());
		}
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.readFrom(ReadFrom.REPLICA)
			.commandTimeout(Duration.ofSeconds(5))
			.build();
		this.connectionFactory = new LettuceConnectionFactory(configuration, client);
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.client = new RedisLockClient(this.connectionFactory);
	}

	@AfterEach
	void destroyClient() {
		RedisConnections.destroy(this.connectionFactory);
	}

	@Test
	void heldLockThatTheReplicaHasNotSeenIsHeld() {
		assertThat(this.client.tryAcquire("lock:k", "owner", TTL)).isInstanceOf(AcquireResult.Acquired.class);
		primary.awaitReplicasInSync(1);
		lagBehind("lock:k");
		assertThat(this.client.isHeld("lock:k", "owner")).isTrue();
	}

	@Test
	void releasedLockThatTheReplicaStillShowsIsNotHeld() {
		assertThat(this.client.tryAcquire("lock:k", "owner", TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.release("lock:k", "owner")).isTrue();
		primary.awaitReplicasInSync(1);
		setOnReplicaOnly("lock:k", "owner");
		assertThat(new StringRedisTemplate(this.connectionFactory).opsForValue().get("lock:k"))
			.as("read from the replica")
			.isEqualTo("owner");
		assertThat(this.client.isHeld("lock:k", "owner")).isFalse();
	}

	@Test
	void readHoldAndPermitThatTheReplicaHasNotSeenAreHeld() {
		assertThat(this.client.tryAcquireRead("lock:r", "reader", TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquirePermit("lock:p", "holder", TTL, 2)).isInstanceOf(AcquireResult.Acquired.class);
		String permits = this.client.permitLeaseKey("lock:p");
		primary.awaitReplicasInSync(1);
		lagBehind(RedisLockKeys.readHoldsOf("lock:r"));
		lagBehind(permits);
		assertThat(this.client.isHeld("lock:r", "reader")).isTrue();
		assertThat(this.client.isHeld(permits, "holder")).isTrue();
	}

	/**
	 * Make the replica miss the key, as one that lags behind the primary does, and check
	 * that the connection factory's reads go to it.
	 */
	private void lagBehind(String key) {
		replica.command("CONFIG", "SET", "replica-read-only", "no");
		replica.command("DEL", key);
		replica.command("CONFIG", "SET", "replica-read-only", "yes");
		assertThat(primary.command("EXISTS", key)).isEqualTo(1L);
		assertThat(new StringRedisTemplate(this.connectionFactory).hasKey(key)).as("read from the replica").isFalse();
	}

	/**
	 * Give the replica a value the primary does not have, as one that lags behind it
	 * shows a key the primary has already deleted.
	 */
	private void setOnReplicaOnly(String key, String value) {
		replica.command("CONFIG", "SET", "replica-read-only", "no");
		replica.command("SET", key, value);
		replica.command("CONFIG", "SET", "replica-read-only", "yes");
	}

}
