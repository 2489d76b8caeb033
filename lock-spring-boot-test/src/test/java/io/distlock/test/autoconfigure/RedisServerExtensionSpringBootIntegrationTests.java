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

package io.distlock.test.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's {@code @SpringBootTest} on the Redis of a {@link RedisServerExtension},
 * connected with {@link SpringDataRedisProperties#register}.
 */
@SpringBootTest(classes = RedisServerExtensionSpringBootIntegrationTests.TestApplication.class)
@DirtiesContext
class RedisServerExtensionSpringBootIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		SpringDataRedisProperties.register(registry, redis);
	}

	@Autowired
	private LockTemplate lockTemplate;

	@Test
	void templateLocksInTheExtensionsRedis() {
		this.lockTemplate.execute(LockRequest.of("report", java.time.Duration.ofSeconds(10), java.time.Duration.ZERO),
				() -> assertThat(redis.endpoint().command("EXISTS", "lock:report")).isEqualTo(1L));
		assertThat(redis.endpoint().command("EXISTS", "lock:report")).isEqualTo(0L);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
