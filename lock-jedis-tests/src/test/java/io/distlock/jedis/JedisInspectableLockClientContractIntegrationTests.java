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

package io.distlock.jedis;

import io.distlock.core.InspectableLockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.InspectableLockClientContractTests;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The {@link InspectableLockClient} contract suite on the auto-configured
 * {@link RedisLockClient} of an application whose Redis client is Jedis.
 */
@SpringBootTest(classes = JedisApplication.class)
@DirtiesContext
class JedisInspectableLockClientContractIntegrationTests extends InspectableLockClientContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Autowired
	private RedisLockClient client;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		JedisRedis.connectTo(redis, registry);
	}

	@Override
	protected InspectableLockClient client() {
		return this.client;
	}

}
