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

import io.distlock.store.LockClient;
import io.distlock.test.LockStoreContractTests;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisSentinelGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Every contract suite of the store SPI (fair, read/write, permits, inspection) for
 * {@link RedisLockClient} on a real Sentinel-managed primary with two replicas, found
 * through three sentinels.
 */
class RedisStoreOnSentinelContractIntegrationTests extends LockStoreContractTests {

	private static RedisSentinelGroup group;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeAll
	static void startGroup() {
		group = RedisSentinelGroup.start();
	}

	@AfterAll
	static void closeGroup() {
		group.close();
	}

	@BeforeEach
	void createClient() {
		group.primary().flushAll();
		this.connectionFactory = RedisConnections.connectionFactory(group);
		this.client = new RedisLockClient(this.connectionFactory);
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
