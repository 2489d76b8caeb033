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

package io.distlock.test;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Tests for {@link RedisEndpoint}.
 */
class RedisEndpointTests {

	@AfterEach
	void clearProperty() {
		System.clearProperty("distlock.redis.url");
	}

	@Test
	void singleNodeUsesExternalServerWhenUrlIsSet() {
		// given
		try (RedisServer server = RedisServer.start()) {
			System.setProperty("distlock.redis.url", server.uri());

			// when
			try (RedisEndpoint endpoint = RedisEndpoint.singleNode()) {
				// then
				assertThat(endpoint.isControllable()).isFalse();
				assertThat(endpoint.port()).isEqualTo(server.port());
				assertThat(endpoint.command("PING")).isEqualTo("PONG");
			}
		}
	}

	@Test
	void singleNodeStartsServerWhenNoUrlIsSet() {
		// given
		assumeThat(System.getenv("DISTLOCK_REDIS_URL")).isNull();

		// when
		try (RedisEndpoint endpoint = RedisEndpoint.singleNode()) {
			// then
			assertThat(endpoint).isInstanceOf(RedisServer.class);
			assertThat(endpoint.isControllable()).isTrue();
			assertThat(endpoint.command("PING")).isEqualTo("PONG");
		}
	}

}
