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

package io.distlock.benchmarks.contenders;

import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.autoconfigure.DistLockAutoConfiguration;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * A minimal Spring Boot application with distlock as a user gets it: Spring Boot's Redis
 * auto-configuration (one shared Lettuce connection) and the distlock auto-configuration,
 * plus one bean with a {@code @DistributedLocked} method.
 */
public final class DistlockApplication implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private DistlockApplication(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/**
	 * Start the application on the given Redis.
	 * @param address the Redis
	 * @return the running application, to be closed
	 */
	public static DistlockApplication start(RedisAddress address, String... properties) {
		// Spring Boot leaves the logging alone: slf4j-simple prints warnings only.
		System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
		ConfigurableApplicationContext context = new SpringApplicationBuilder(BenchmarkConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties("spring.data.redis.host=" + address.host(), "spring.data.redis.port=" + address.port(),
					"spring.data.redis.timeout=2s")
			.properties(properties)
			.run();
		return new DistlockApplication(context);
	}

	/**
	 * Return the application's {@link LockTemplate}.
	 * @return the template
	 */
	public LockTemplate lockTemplate() {
		return this.context.getBean(LockTemplate.class);
	}

	/**
	 * Return the bean with the locked method, as the application's other beans see it
	 * (the proxy).
	 * @return the locked bean
	 */
	public LockedWork lockedWork() {
		return this.context.getBean(LockedWork.class);
	}

	/**
	 * Return the application's Redis connection factory.
	 * @return the connection factory
	 */
	public RedisConnectionFactory connectionFactory() {
		return this.context.getBean(RedisConnectionFactory.class);
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * The application: the two auto-configurations and the locked bean.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class })
	static class BenchmarkConfiguration {

		@Bean
		LockedWork lockedWork() {
			return new LockedWork();
		}

	}

	/**
	 * A bean whose methods run under a distributed lock of their key argument, with the
	 * same lease and wait time as every other contender: one renewed by the watchdog
	 * while held (the default), one not.
	 */
	public static class LockedWork {

		/**
		 * Run the body under the lock of the key.
		 * @param key the lock key
		 * @param body what to run while holding the lock
		 */
		@DistributedLocked(key = "#key", ttl = "30s", waitTime = "10s")
		public void run(String key, Runnable body) {
			body.run();
		}

		/**
		 * Run the body under the lock of the key, its lease not renewed.
		 * @param key the lock key
		 * @param body what to run while holding the lock
		 */
		@DistributedLocked(key = "#key", ttl = "30s", waitTime = "10s", autoRenew = false)
		public void runWithoutRenewal(String key, Runnable body) {
			body.run();
		}

	}

}
