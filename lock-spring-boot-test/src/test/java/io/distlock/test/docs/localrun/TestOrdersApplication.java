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

import io.distlock.test.RedisServer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The local run of docs/testing.md: {@link OrdersApplication} on a redis-server started
 * for it, as {@code ./mvnw spring-boot:test-run} runs it from the test classes.
 */
public class TestOrdersApplication {

	public static void main(String[] args) {
		SpringApplication.from(OrdersApplication::main).with(LocalRedis.class).run(args);
	}

	/**
	 * Starts a redis-server on a free port and connects the application to it.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class LocalRedis {

		@Bean(destroyMethod = "close") // stopped with the application
		RedisServer redisServer() {
			return RedisServer.start();
		}

		@Bean
		DataRedisConnectionDetails redisConnectionDetails(RedisServer redis) {
			return new DataRedisConnectionDetails() {

				@Override
				public Standalone getStandalone() {
					return Standalone.of(redis.host(), redis.port());
				}

			};
		}

	}

}
