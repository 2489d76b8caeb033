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

import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServer;

import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisServerContextCustomizer}: the Redis it starts serves the
 * context's {@code spring.data.redis.*} and stops with the context.
 */
class RedisServerContextCustomizerIntegrationTests {

	@Test
	void redisIsStartedForTheContextAndStoppedWhenTheContextCloses() {
		RedisServer server;
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			new RedisServerContextCustomizer().customizeContext(context, null);
			context.refresh();
			server = (RedisServer) context.getBean(RedisEndpoint.class);
			assertThat(server.isRunning()).isTrue();
			assertThat(context.getEnvironment().getProperty("spring.data.redis.port", Integer.class))
				.isEqualTo(server.port());
			assertThat(server.command("PING")).isEqualTo("PONG");
		}
		assertThat(server.isRunning()).isFalse();
	}

	@Test
	void customizersAreEqualSoThatContextsStayCached() {
		assertThat(new RedisServerContextCustomizer()).isEqualTo(new RedisServerContextCustomizer())
			.hasSameHashCodeAs(new RedisServerContextCustomizer());
	}

}
