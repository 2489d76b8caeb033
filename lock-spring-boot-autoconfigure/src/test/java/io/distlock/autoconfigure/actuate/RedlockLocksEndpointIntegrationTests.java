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

package io.distlock.autoconfigure.actuate;

import java.time.Duration;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.distlock.autoconfigure.actuate.LocksEndpointIntegrationTests.forceRelease;
import static io.distlock.autoconfigure.actuate.LocksEndpointIntegrationTests.state;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for the {@code locks} endpoint when locks go through Redlock, on five
 * real redis-server nodes.
 */
class RedlockLocksEndpointIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(6);

	private ApplicationContextRunner contextRunner() {
		RedisServer application = redis.server(5);
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
					DistLockEndpointAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + application.host(),
					"spring.data.redis.port=" + application.port(),
					"distlock.redlock.nodes=" + String.join(",", redis.uris().subList(0, 5)),
					"distlock.redlock.node-timeout=200ms", "management.endpoints.web.exposure.include=locks",
					"management.endpoint.locks.show-values=always");
	}

	@Test
	void everyOperationWorksOnRedlock() {
		contextRunner().run((context) -> {
			ForceReleasingLocksEndpoint endpoint = context.getBean(ForceReleasingLocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			LockHandle held = template.tryAcquire(LockRequest.of("order:1", TTL, Duration.ZERO).withName("orders"))
				.orElseThrow();

			// GET /actuator/locks
			assertThat(endpoint.locks(SecurityContext.NONE).locks()).singleElement().satisfies((lock) -> {
				assertThat(lock.key()).isEqualTo("order:1");
				assertThat(lock.name()).isEqualTo("orders");
				assertThat(lock.fencingToken()).isEqualTo(held.fencingToken());
			});

			// GET /actuator/locks/{key}: held on a majority of the nodes
			LocksEndpoint.LockStateDescriptor state = state(endpoint, "order:1");
			assertThat(state.held()).isTrue();
			assertThat(state.remainingLease()).isPositive().isLessThanOrEqualTo(TTL);
			assertThat(state.lastFencingToken()).isEqualTo(held.fencingToken());
			assertThat(state.readHolds()).as("Redlock takes no read holds").isZero();
			assertThat(state.permitHolders()).as("Redlock hands out no permits").isZero();

			// DELETE /actuator/locks/{key}: gone from every node
			assertThat(forceRelease(endpoint, "order:1").released()).isTrue();
			for (int node = 0; node < 5; node++) {
				assertThat(redis.server(node).command("EXISTS", "lock:order:1")).isEqualTo(0L);
			}
			assertThat(state(endpoint, "order:1").held()).isFalse();
			try (LockHandle next = template.tryAcquire("order:1", TTL, Duration.ZERO).orElseThrow()) {
				assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
			}
			held.close();
		});
	}

}
