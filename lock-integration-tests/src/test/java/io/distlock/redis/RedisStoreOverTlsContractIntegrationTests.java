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
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every contract suite of the store SPI (fair, read/write, permits, inspection) for
 * {@link RedisLockClient} on a real TLS-only Redis that requires client certificates.
 */
class RedisStoreOverTlsContractIntegrationTests extends LockStoreContractTests {

	private static RedisServer server;

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeAll
	static void startServer() {
		assumeTrue(RedisServer.isTlsSupported(), "this redis-server was built without TLS");
		server = RedisServer.startTls("--tls-auth-clients", "yes");
	}

	@AfterAll
	static void closeServer() {
		if (server != null) {
			server.close();
		}
	}

	@BeforeEach
	void createClient() {
		server.flushAll();
		this.connectionFactory = RedisConnections.connectionFactory(server);
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
