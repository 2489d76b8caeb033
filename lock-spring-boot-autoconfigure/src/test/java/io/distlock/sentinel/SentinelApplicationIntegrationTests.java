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

package io.distlock.sentinel;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.distlock.DistributedLockException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application configured only with {@code spring.data.redis.sentinel.*} and
 * {@code distlock.replication.min-replicas=1} locks through the primary the sentinels
 * name, before and after a failover.
 */
class SentinelApplicationIntegrationTests {

	private static RedisSentinelGroup group;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
		.withUserConfiguration(OrdersConfiguration.class);

	@BeforeAll
	static void startGroup() {
		group = RedisSentinelGroup.start();
	}

	@AfterAll
	static void closeGroup() {
		group.close();
	}

	private ApplicationContextRunner sentinelApplication() {
		return this.contextRunner.withPropertyValues("spring.data.redis.sentinel.master=" + group.masterName(),
				"spring.data.redis.sentinel.nodes=" + String.join(",", group.sentinelAddresses()),
				"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=1s",
				"distlock.replication.min-replicas=1");
	}

	@Test
	void annotatedMethodsAndTheTemplateLockOnThePrimaryAndAReplicaHasTheLockWhileHeld() {
		sentinelApplication().run((context) -> {
			assertThat(context).hasNotFailed();
			Orders orders = context.getBean(Orders.class);
			List<RedisServer> holders = orders.process("42",
					() -> group.replicas()
						.stream()
						.filter((replica) -> Long.valueOf(1).equals(replica.command("EXISTS", "lock:order-42")))
						.toList());
			// Acknowledged by one replica at least before the method ran.
			assertThat(holders).isNotEmpty();
			LockTemplate template = context.getBean(LockTemplate.class);
			try (LockHandle handle = template.tryAcquire("report", Duration.ofSeconds(10), Duration.ZERO)
				.orElseThrow()) {
				assertThat(group.primary().command("EXISTS", "lock:report")).isEqualTo(1L);
				assertThat(orders.process("43", () -> group.primary().command("EXISTS", "lock:order-43")))
					.isEqualTo(1L);
			}
			assertThat(group.primary().command("EXISTS", "lock:report")).isEqualTo(0L);
		});
	}

	@Test
	void locksSurviveAFailover() {
		sentinelApplication().run((context) -> {
			Orders orders = context.getBean(Orders.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			long before = orders.process("42", () -> LockContext.current().orElseThrow().fencingToken());
			RedisServer promoted = group.failover();
			long after = await().atMost(Duration.ofSeconds(10))
				.ignoreExceptionsInstanceOf(DistributedLockException.class)
				.until(() -> orders.process("42", () -> {
					assertThat(promoted.command("EXISTS", "lock:order-42")).isEqualTo(1L);
					return LockContext.current().orElseThrow().fencingToken();
				}), (token) -> true);
			assertThat(after).isGreaterThan(before);
			Optional<LockHandle> handle = template.tryAcquire("report", Duration.ofSeconds(10), Duration.ZERO);
			assertThat(handle).isPresent();
			assertThat(promoted.command("EXISTS", "lock:report")).isEqualTo(1L);
			handle.get().close();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersConfiguration {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders {

		@DistributedLocked(key = "'order-' + #id", ttl = "10s", waitTime = "2s")
		<T> T process(String id, Work<T> work) {
			return work.run();
		}

	}

	@FunctionalInterface
	interface Work<T> {

		T run();

	}

}
