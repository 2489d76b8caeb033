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
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Every contract suite of the store SPI (fair, read/write, permits, inspection) for
 * {@link RedisLockClient} on a real standalone redis-server. What is particular to Redis
 * is tested in {@link RedisLockClientIntegrationTests},
 * {@link RedisReadWriteLockIntegrationTests}, {@link RedisPermitLockIntegrationTests} and
 * {@link RedisLockClientInspectionIntegrationTests}.
 */
class RedisStoreContractIntegrationTests extends LockStoreContractTests {

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

	@Override
	protected LockClient client() {
		return this.client;
	}

}
