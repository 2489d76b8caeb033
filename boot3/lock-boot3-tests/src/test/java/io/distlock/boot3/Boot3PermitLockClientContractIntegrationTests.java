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
package io.distlock.boot3;

import io.distlock.core.PermitLockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.PermitLockClientContractTests;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The {@link PermitLockClientContractTests contract} of {@link PermitLockClient}, run
 * against the {@link RedisLockClient} that the Boot 3 starter configures in a Spring Boot
 * 3.5 application, on a real redis-server.
 */
@SpringBootTest(classes = Boot3Application.class)
@DirtiesContext
class Boot3PermitLockClientContractIntegrationTests extends PermitLockClientContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Autowired
	private RedisLockClient client;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		Boot3Redis.connectTo(redis, registry);
	}

	@Override
	protected PermitLockClient client() {
		return this.client;
	}

}
