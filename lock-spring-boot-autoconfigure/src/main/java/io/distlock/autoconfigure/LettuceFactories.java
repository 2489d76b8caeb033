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

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * What the auto-configuration needs to know of a Lettuce connection factory, asked
 * without loading Lettuce's classes when Lettuce is absent.
 */
final class LettuceFactories {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			LettuceFactories.class.getClassLoader());

	private LettuceFactories() {
	}

	static boolean isCluster(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT && Lettuce.isCluster(connectionFactory);
	}

	static @Nullable Duration commandTimeout(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT ? Lettuce.commandTimeout(connectionFactory) : null;
	}

	static boolean isSentinel(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT && Lettuce.isSentinel(connectionFactory);
	}

	/**
	 * Loaded only when Lettuce is on the class path.
	 */
	private static final class Lettuce {

		static boolean isCluster(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
		}

		static boolean isSentinel(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.isRedisSentinelAware();
		}

		static @Nullable Duration commandTimeout(RedisConnectionFactory connectionFactory) {
			return (connectionFactory instanceof LettuceConnectionFactory lettuce)
					? lettuce.getClientConfiguration().getCommandTimeout() : null;
		}

	}

}
