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

import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code distlock} health contributor on five real Redlock nodes, some of them
 * killed: {@code UP} while a majority answers, {@code DOWN} below it.
 */
class RedlockHealthIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(5);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
				DistLockHealthContributorAutoConfiguration.class))
		.withPropertyValues("distlock.redlock.nodes=" + String.join(",", redis.uris()),
				"distlock.redlock.node-timeout=" + NODE_TIMEOUT.toMillis() + "ms");

	@Test
	void upWithEveryNodeReachable() {
		this.contextRunner.run((context) -> {
			HealthIndicator health = context.getBean("distlockHealthIndicator", HealthIndicator.class);
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(health.health()).satisfies((up) -> {
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails()).containsEntry("backend", "redlock")
					.containsEntry("nodes", "5/5 reachable")
					.containsEntry("releaseSubscription", "connected")
					.containsEntry("renewedLeases", 0)
					.containsEntry("renewalBacklog", 0);
			}));
		});
	}

	@Test
	void upWithOneNodeKilled() {
		this.contextRunner.run((context) -> {
			HealthIndicator health = context.getBean("distlockHealthIndicator", HealthIndicator.class);
			redis.server(4).kill();
			Health up = health.health();
			assertThat(up.getStatus()).isEqualTo(Status.UP);
			assertThat(up.getDetails()).containsEntry("nodes", "4/5 reachable");
		});
	}

	@Test
	void downWithinTheNodeTimeoutWithThreeNodesKilled() {
		this.contextRunner.run((context) -> {
			HealthIndicator health = context.getBean("distlockHealthIndicator", HealthIndicator.class);
			redis.server(0).kill();
			redis.server(2).kill();
			redis.server(4).kill();
			long start = System.nanoTime();
			Health down = health.health();
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails()).containsEntry("backend", "redlock").containsEntry("nodes", "2/5 reachable");
			assertThat(took).isLessThan(NODE_TIMEOUT.plusMillis(300));
			redis.server(0).restart();
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(health.health()).satisfies((up) -> {
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails()).containsEntry("nodes", "3/5 reachable");
			}));
		});
	}

}
