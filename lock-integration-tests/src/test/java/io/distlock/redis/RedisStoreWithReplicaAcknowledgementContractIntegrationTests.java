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

import io.distlock.store.LockClient;
import io.distlock.test.LockStoreContractTests;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Every contract suite of the store SPI (fair, read/write, permits, inspection) for
 * {@link RedisLockClient} waiting for one replica's acknowledgement of every acquisition
 * and renewal, on a real primary with a replica.
 */
class RedisStoreWithReplicaAcknowledgementContractIntegrationTests extends LockStoreContractTests {

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
	static void closeServers() {
		replica.close();
		primary.close();
	}

	@BeforeEach
	void createClient() {
		primary.flushAll();
		this.connectionFactory = RedisConnections.connectionFactory(primary);
		this.client = new RedisLockClient(this.connectionFactory);
		this.client.setReplicaAcknowledgement(1, Duration.ofSeconds(1));
	}

	@AfterEach
	void destroyClient() {
		this.connectionFactory.destroy();
	}

	@Override
	protected LockClient client() {
		return this.client;
	}

}
