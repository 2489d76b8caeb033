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

package io.distlock.redis;

import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;

import io.distlock.waiting.LockWaiter;

/**
 * Turns the messages of sharded release channels into signals, and a new subscription
 * into a signal for the waiters of its lock, which may have missed a release before it
 * was in place. Runs on Lettuce's event loop, where signalling only unparks threads.
 */
final class ShardedReleaseListener extends RedisClusterPubSubAdapter<String, String> {

	private final LockWaiter waiter;

	ShardedReleaseListener(LockWaiter waiter) {
		this.waiter = waiter;
	}

	@Override
	public void smessage(RedisClusterNode node, String channel, String message) {
		this.waiter.signal(message);
	}

	@Override
	public void ssubscribed(RedisClusterNode node, String channel, long count) {
		String resource = RedisLockKeys.resourceOfChannel(channel);
		if (resource != null) {
			this.waiter.signalResource(resource);
		}
	}

}
