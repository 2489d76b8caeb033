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

import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * The sharded release notifications of a {@link RedisReleaseNotifier} on Redis Cluster
 * (Redis 7 and later): the lock's release channel is subscribed with {@code SSUBSCRIBE}
 * while a thread of this application waits for that lock, and unsubscribed when none
 * does. A sharded message travels only within the shard that serves the lock's slot,
 * where a classic message is broadcast to every node of the cluster: the cost of a
 * release then does not grow with the cluster, nor with the number of applications'
 * subscriptions.
 *
 * <p>
 * After the cluster's topology changes (Lettuce's topology refresh noticed a failover or
 * a moved slot) every channel waited for is subscribed again, on the node that serves it
 * now, and its waiters are woken once that is confirmed, since a release may have been
 * missed in between.
 *
 * <p>
 * On Redis before 7, which has no sharded channels, it falls back on a
 * {@link ClassicReleaseNotifier}, and the lock client publishes classic messages; when
 * the Redis user may not subscribe, it logs one warning and waiters poll. Needs Lettuce.
 * Its log category is still {@code io.distlock.redis.ShardedReleaseNotifier}.
 */
final class ShardedReleaseNotifier implements ReleaseNotifier {

	private final ClassicReleaseNotifier classic;

	// Keeps whether this notifier runs, under a lock of its own (which waiting threads
	// and Lettuce take too).
	private final ShardedSubscriptions subscriptions;

	ShardedReleaseNotifier(LettuceConnectionFactory connectionFactory, LockWaiter waiter) {
		Assert.notNull(connectionFactory, "'connectionFactory' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		this.classic = new ClassicReleaseNotifier(connectionFactory, waiter);
		this.subscriptions = new ShardedSubscriptions(connectionFactory, waiter, this.classic);
	}

	/**
	 * Connect for subscriptions and follow the waiters from now on. Redis being
	 * unreachable does not fail the start: waiters poll until a subscription works.
	 */
	@Override
	public void start() {
		this.subscriptions.start();
	}

	/**
	 * Unsubscribe from everything and close the connection. Waiters keep working on their
	 * backoff. Not final: {@link #start()} follows the waiters again.
	 */
	@Override
	public void stop() {
		this.subscriptions.stop();
	}

	@Override
	public boolean isRunning() {
		return this.subscriptions.isRunning();
	}

	/**
	 * Tell whether release notifications reach this application's waiters: the sharded
	 * subscription connection is open, or, on Redis before 7, the classic subscription is
	 * up. It is not before the first connection, while the connection is down, when the
	 * Redis user may not subscribe, and once stopped; waiters then poll with backoff.
	 */
	@Override
	public boolean isSubscribed() {
		return this.subscriptions.isConnected();
	}

	/**
	 * Stop and release the resources of the subscriptions for good.
	 */
	@Override
	public void close() {
		stop();
		this.classic.close();
	}

}
