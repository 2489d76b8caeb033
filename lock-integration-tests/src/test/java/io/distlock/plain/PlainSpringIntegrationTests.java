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
package io.distlock.plain;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockContext;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.redlock.RedlockClient;
import io.distlock.redlock.RedlockNodes;
import io.distlock.store.LockClient;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code lock-core} in a plain Spring {@link AnnotationConfigApplicationContext}, with no
 * Spring Boot on the class path, against real redis-server processes.
 */
class PlainSpringIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(3);

	@Test
	void annotatedMethodRunsUnderItsLockWithoutSpringBoot() throws Exception {
		assertThat(getClass().getClassLoader().getResource("org/springframework/boot/SpringApplication.class"))
			.as("no Spring Boot on the class path")
			.isNull();
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
				RedisConfiguration.class, LockingConfiguration.class, Inventory.class)) {
			Inventory inventory = context.getBean(Inventory.class);
			assertThat(AopUtils.isAopProxy(inventory)).isTrue();
			CriticalSections sections = CriticalSections.run(4, 25, (section) -> inventory.take("sku-1", section));
			assertThat(sections.overlaps()).isZero();
			assertThat(sections.count()).isEqualTo(100);
			assertThat(inventory.increasingTokens()).as("every call saw a higher fencing token").isEqualTo(100);
			assertThat(context.getBean(LockTemplate.class).getEngine().getStatistics().getAcquired()).isEqualTo(100);
			assertThat(redis.endpoint().command("EXISTS", "lock:inventory:sku-1")).as("released").isEqualTo(0L);
		}
	}

	@Test
	void fairLockOnAStoreWithoutFairModeFailsAtStartupNamingTheMethod() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new AnnotationConfigApplicationContext(LockingConfiguration.class,
					RedlockConfiguration.class, FairQueue.class)
				.close())
			.withMessageContaining("fair = true")
			.withMessageContaining(FairQueue.class.getName() + ".next(java.lang.String)");
	}

	@Configuration(proxyBeanMethods = false)
	static class RedisConfiguration {

		@Bean(destroyMethod = "destroy")
		LettuceConnectionFactory redisConnectionFactory() {
			return RedisConnections.connectionFactory(redis.endpoint());
		}

	}

	/**
	 * Replaces the {@link LockingConfiguration}'s single-node lock client with Redlock,
	 * registered after it.
	 */
	@Configuration(proxyBeanMethods = false)
	@Import(RedisConfiguration.class)
	static class RedlockConfiguration {

		@Bean(destroyMethod = "close")
		RedlockNodes redlockNodes() {
			return RedlockNodes.connect(redis.uris(), Duration.ofSeconds(1));
		}

		@Bean(destroyMethod = "close")
		LockClient lockClient(RedlockNodes nodes) {
			return new RedlockClient(nodes.clients(), 0.01, Duration.ofSeconds(1));
		}

	}

	static class Inventory {

		private final AtomicInteger increasingTokens = new AtomicInteger();

		private volatile long lastToken;

		@DistributedLocked(name = "inventory", key = "#sku", waitTime = "10s")
		public void take(String sku, Runnable work) {
			long token = LockContext.current().orElseThrow().fencingToken();
			if (token > this.lastToken) {
				this.lastToken = token;
				this.increasingTokens.incrementAndGet();
			}
			work.run();
		}

		public int increasingTokens() {
			return this.increasingTokens.get();
		}

	}

	static class FairQueue {

		@DistributedLocked(key = "#queue", fair = true)
		public void next(String queue) {
		}

	}

}
