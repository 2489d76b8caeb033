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

import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redlock nodes that need a password, given in the node URLs.
 */
class RedlockCredentialsIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(3, "--requirepass", "s3cret");

	@Test
	void nodesWithAPasswordInTheirUrlAreUsed() {
		java.util.List<String> urls = redis.endpoints()
			.stream()
			.map((endpoint) -> "redis://:s3cret@" + endpoint.host() + ":" + endpoint.port())
			.toList();
		try (RedlockNodes nodes = RedlockNodes.connect(urls, Duration.ofMillis(500));
				RedlockClient client = new RedlockClient(nodes.clients(), 0.01, Duration.ofMillis(500))) {
			assertThat(client.tryAcquire("k", "owner", Duration.ofSeconds(10)))
				.isInstanceOf(AcquireResult.Acquired.class);
			assertThat(redis.endpoint(0).command("GET", "k")).isEqualTo("owner");
		}
	}

}
