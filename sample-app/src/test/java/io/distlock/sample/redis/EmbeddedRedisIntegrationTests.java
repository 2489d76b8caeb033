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

package io.distlock.sample.redis;

import io.distlock.sample.SampleApplication;
import io.distlock.sample.shop.Purchase;
import io.distlock.sample.shop.Shop;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample starts its own redis-server only when no Redis is configured.
 */
@ExtendWith(OutputCaptureExtension.class)
class EmbeddedRedisIntegrationTests {

	@Test
	void startsAnEmbeddedRedisWhenNoneIsConfiguredAndStopsItWithTheApplication(CapturedOutput output) {
		EmbeddedRedis embedded;
		try (ConfigurableApplicationContext context = run()) {
			embedded = context.getBean(EmbeddedRedis.class);
			assertThat(embedded.isRunning()).isTrue();
			assertThat(context.getEnvironment().getProperty("spring.data.redis.port", Integer.class))
				.isEqualTo(embedded.port());
			assertThat(context.getBean(Shop.class).purchase(1).fencingToken()).isPositive();
			assertThat(output).contains("No Redis configured (spring.data.redis.url or host/port): started an "
					+ "embedded redis-server at redis://127.0.0.1:" + embedded.port());
		}
		assertThat(embedded.isRunning()).isFalse();
		assertThat(output).contains("Stopped the embedded redis-server at redis://127.0.0.1:" + embedded.port());
	}

	@Test
	void usesTheRedisGivenByUrlAndStartsNone(CapturedOutput output) {
		try (RedisServer external = RedisServer.start();
				ConfigurableApplicationContext context = run("--spring.data.redis.url=" + external.uri())) {
			assertThat(context.getBeanProvider(EmbeddedRedis.class).getIfAvailable()).isNull();
			Purchase purchase = context.getBean(Shop.class).purchase(1);
			assertThat(external.command("GET", "shop:product:1:stock")).isEqualTo(String.valueOf(purchase.stockLeft()));
			assertThat(output)
				.contains("Using the Redis configured by spring.data.redis.url; no embedded redis-server started")
				.doesNotContain("started an embedded redis-server");
		}
	}

	@Test
	void usesTheRedisGivenByHostAndPortAndStartsNone(CapturedOutput output) {
		try (RedisServer external = RedisServer.start();
				ConfigurableApplicationContext context = run("--spring.data.redis.host=" + external.host(),
						"--spring.data.redis.port=" + external.port())) {
			assertThat(context.getBeanProvider(EmbeddedRedis.class).getIfAvailable()).isNull();
			Purchase purchase = context.getBean(Shop.class).purchase(1);
			assertThat(external.command("GET", "shop:product:1:stock")).isEqualTo(String.valueOf(purchase.stockLeft()));
			assertThat(output).doesNotContain("started an embedded redis-server");
		}
	}

	private static ConfigurableApplicationContext run(String... args) {
		String[] arguments = new String[args.length + 1];
		arguments[0] = "--server.port=0";
		System.arraycopy(args, 0, arguments, 1, args.length);
		return SpringApplication.run(SampleApplication.class, arguments);
	}

}
