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

import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Chooses how waiters hear of releases: sharded channels subscribed per waited-for lock
 * on Redis Cluster through Lettuce, one pattern subscription otherwise.
 */
final class ReleaseNotifiers {

	private ReleaseNotifiers() {
	}

	static RedisReleaseNotifier create(RedisConnectionFactory connectionFactory, LockWaiter waiter) {
		if (LettuceFactories.isCluster(connectionFactory)) {
			return RedisReleaseNotifier.sharded((LettuceConnectionFactory) connectionFactory, waiter);
		}
		return new RedisReleaseNotifier(connectionFactory, waiter);
	}

}
