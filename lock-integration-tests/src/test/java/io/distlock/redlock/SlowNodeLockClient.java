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

package io.distlock.redlock;

import java.time.Duration;
import java.util.Optional;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.AsyncFencingLockCalls;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * A real node client whose acquisitions take longer, to push a Redlock acquisition past
 * its validity time.
 */
class SlowNodeLockClient extends RedisLockClient {

	private final Duration delay;

	SlowNodeLockClient(RedisConnectionFactory connectionFactory, Duration delay) {
		super(connectionFactory);
		this.delay = delay;
	}

	/**
	 * None: this node is slow in its blocking calls, which Redlock only uses without
	 * non-blocking ones.
	 */
	@Override
	public Optional<AsyncFencingLockCalls> asyncCalls() {
		return Optional.empty();
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		AcquireResult result = super.tryAcquire(key, ownerToken, ttl);
		try {
			Thread.sleep(this.delay.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return result;
	}

}
