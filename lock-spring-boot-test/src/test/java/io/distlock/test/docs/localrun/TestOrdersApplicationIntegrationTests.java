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

package io.distlock.test.docs.localrun;

import java.time.Duration;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServer;
import io.distlock.test.docs.localrun.OrdersApplication.OrderService;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The local run of docs/testing.md, as {@link TestOrdersApplication#main} starts it: the
 * application's locks live in the redis-server started for it, which stops with it.
 */
class TestOrdersApplicationIntegrationTests {

	@Test
	void applicationRunsOnTheStartedRedisServerWhichStopsWithIt() {
		ConfigurableApplicationContext context = SpringApplication.from(OrdersApplication::main)
			.with(TestOrdersApplication.LocalRedis.class)
			.run("--spring.main.banner-mode=off")
			.getApplicationContext();
		RedisServer redis = context.getBean(RedisServer.class);
		try {
			assertThat(context.getBean(LettuceConnectionFactory.class).getPort()).isEqualTo(redis.port());
			context.getBean(OrderService.class).pay(42);
			try (LockHandle held = context.getBean(LockTemplate.class)
				.tryAcquire("order:42", Duration.ofSeconds(10), Duration.ZERO)
				.orElseThrow()) {
				assertThat(redis.command("EXISTS", "lock:order:42")).isEqualTo(1L);
			}
		}
		finally {
			context.close();
		}
		assertThat(redis.isRunning()).isFalse();
	}

}
