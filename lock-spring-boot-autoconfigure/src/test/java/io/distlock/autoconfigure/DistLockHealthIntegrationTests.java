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

package io.distlock.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code distlock} health contributor on a real redis-server that is stopped and
 * started again: {@code DOWN} within the command timeout, {@code UP} once back.
 */
class DistLockHealthIntegrationTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(1);

	private ApplicationContextRunner contextRunner() {
		RedisServer server = redis.server(0);
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
					DistLockHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"spring.data.redis.timeout=" + COMMAND_TIMEOUT.toMillis() + "ms");
	}

	@Test
	void upWithTheBackendTheSubscriptionAndTheRenewedLeases() {
		contextRunner().run((context) -> {
			HealthIndicator health = context.getBean("distlockHealthIndicator", HealthIndicator.class);
			Optional<LockHandle> lock = context.getBean(LockTemplate.class)
				.tryAcquire(LockRequest.of("health", Duration.ofSeconds(30), Duration.ZERO));
			assertThat(lock).isPresent();
			try (LockHandle handle = lock.get()) {
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(health.health()).satisfies((up) -> {
						assertThat(up.getStatus()).isEqualTo(Status.UP);
						assertThat(up.getDetails()).containsExactlyInAnyOrderEntriesOf(Map.of("backend", "redis",
								"releaseSubscription", "connected", "renewedLeases", 1, "renewalBacklog", 0));
					}));
			}
		});
	}

	@Test
	void downWithinTheCommandTimeoutWhileRedisIsStoppedAndUpOnceItIsBack() {
		contextRunner().run((context) -> {
			HealthIndicator health = context.getBean("distlockHealthIndicator", HealthIndicator.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.UP));
			// Renewed every 2s, in the backlog 0.5s after a renewal it could not send.
			Optional<LockHandle> lock = context.getBean(LockTemplate.class)
				.tryAcquire(LockRequest.of("health", Duration.ofSeconds(6), Duration.ZERO));
			assertThat(lock).isPresent();
			redis.server(0).kill();
			long start = System.nanoTime();
			Health down = health.health();
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(took).isLessThan(COMMAND_TIMEOUT.plusMillis(300));
			assertThat(down.getDetails()).containsEntry("backend", "redis").containsKey("error");
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(health.health().getDetails())
					.containsEntry("releaseSubscription", "not connected")
					.containsEntry("renewalBacklog", 1));
			redis.server(0).restart();
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(health.health()).satisfies((up) -> {
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails()).containsEntry("releaseSubscription", "connected")
					.doesNotContainKey("error");
			}));
		});
	}

	@Test
	void lostReleaseSubscriptionAloneKeepsTheHealthUp() {
		contextRunner().run((context) -> {
			HealthIndicator health = context.getBean("distlockHealthIndicator", HealthIndicator.class);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "connected".equals(health.health().getDetails().get("releaseSubscription")));
			RedisServer server = redis.server(0);
			try {
				// The subscription's connection drops, and Lettuce's subscribing again
				// is refused, while the lock connection goes on working.
				server.command("ACL", "SETUSER", "default", "resetchannels");
				server.command("CLIENT", "KILL", "TYPE", "pubsub");
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(health.health()).satisfies((up) -> {
						assertThat(up.getStatus()).isEqualTo(Status.UP);
						assertThat(up.getDetails()).containsEntry("releaseSubscription", "not connected");
					}));
			}
			finally {
				server.command("ACL", "SETUSER", "default", "allchannels");
			}
			// Its refused subscription left it an ordinary connection; dropped, Lettuce
			// reconnects it and subscribes again.
			server.command("CLIENT", "KILL", "TYPE", "normal");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "connected".equals(health.health().getDetails().get("releaseSubscription")));
		});
	}

}
