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

package io.distlock.test.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServerExtension;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The {@code spring.data.redis.*} properties that connect Spring Boot to a test Redis,
 * for tests that start it with {@link RedisServerExtension} instead of
 * {@link AutoConfigureRedisServer @AutoConfigureRedisServer}:
 *
 * <pre class="code">
 * &#64;RegisterExtension
 * static final RedisServerExtension redis = RedisServerExtension.singleNode();
 *
 * &#64;DynamicPropertySource
 * static void redisProperties(DynamicPropertyRegistry registry) {
 *     SpringDataRedisProperties.register(registry, redis);
 * }
 * </pre>
 */
public final class SpringDataRedisProperties {

	private SpringDataRedisProperties() {
	}

	/**
	 * Return the properties that connect Spring Boot to the given Redis: host, port,
	 * password when it has one, and SSL when it requires TLS.
	 * @param endpoint the Redis to connect to
	 * @return the properties, by name
	 */
	public static Map<String, Object> of(RedisEndpoint endpoint) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.data.redis.host", endpoint.host());
		properties.put("spring.data.redis.port", endpoint.port());
		String password = endpoint.password();
		if (password != null) {
			properties.put("spring.data.redis.password", password);
		}
		if (endpoint.isTls()) {
			properties.put("spring.data.redis.ssl.enabled", true);
		}
		return properties;
	}

	/**
	 * Register the properties that connect Spring Boot to the Redis of the given
	 * extension; they are read when the context starts, after the extension started
	 * Redis.
	 * @param registry the registry of a {@code @DynamicPropertySource} method
	 * @param extension the extension, registered on a static field of the test class
	 */
	public static void register(DynamicPropertyRegistry registry, RedisServerExtension extension) {
		registry.add("spring.data.redis.host", () -> extension.endpoint().host());
		registry.add("spring.data.redis.port", () -> extension.endpoint().port());
		registry.add("spring.data.redis.password", () -> extension.endpoint().password());
	}

}
