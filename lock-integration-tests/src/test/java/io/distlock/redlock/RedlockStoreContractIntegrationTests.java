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

package io.distlock.redlock;

import java.time.Duration;

import io.distlock.store.LockClient;
import io.distlock.test.LockStoreContractTests;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every contract suite of the store SPI that {@link RedlockClient} implements (the lock
 * client and inspection) over five real redis-server processes. What is particular to
 * Redlock is tested in {@link RedlockClientIntegrationTests} and
 * {@link RedlockClientInspectionIntegrationTests}.
 */
class RedlockStoreContractIntegrationTests extends LockStoreContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(5);

	private RedlockNodes nodes;

	private RedlockClient client;

	@BeforeEach
	void createClient() {
		// Generous node timeouts: the contract's 16 spinning threads load a 2-core
		// machine.
		this.nodes = RedlockNodes.connect(redis.uris(), Duration.ofSeconds(1));
		this.client = new RedlockClient(this.nodes.clients(), 0.01, Duration.ofSeconds(1));
	}

	@AfterEach
	void closeClient() {
		this.client.close();
		this.nodes.close();
	}

	@Override
	protected LockClient client() {
		return this.client;
	}

}
