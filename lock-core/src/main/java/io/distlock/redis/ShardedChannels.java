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

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.waiting.LockWaiter;

/**
 * The release channels subscribed on one sharded pub/sub connection of
 * {@link ShardedSubscriptions}: sends {@code SSUBSCRIBE} and {@code SUNSUBSCRIBE} without
 * waiting for their answer, remembers what it sent, and handles a command that failed or
 * went unanswered: tried again a second later while its lock is waited for, or, on Redis
 * before 7 and for a Redis user that may not subscribe, told to the owner.
 *
 * <p>
 * Its owner calls it holding its own lock, which it takes too to handle a failure, off
 * Lettuce's event loop, which must never wait for that lock.
 */
final class ShardedChannels {

	// How long a subscription may go unanswered before it is taken as failed.
	private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration RETRY = Duration.ofSeconds(1);

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(ShardedReleaseNotifier.class);

	private final StatefulRedisClusterPubSubConnection<String, String> connection;

	private final Lock lock;

	private final LockWaiter waiter;

	private final Owner owner;

	private final Set<String> subscribed = new HashSet<>();

	/**
	 * Create the channels of a connection just opened, and have its messages signal the
	 * waiter.
	 * @param lock the owner's lock
	 * @param waiter the waiter whose waits the channels follow
	 * @param owner the subscriptions these channels serve
	 */
	ShardedChannels(StatefulRedisClusterPubSubConnection<String, String> connection, Lock lock, LockWaiter waiter,
			Owner owner) {
		this.connection = connection;
		this.connection.addListener(new ShardedReleaseListener(waiter));
		this.lock = lock;
		this.waiter = waiter;
		this.owner = owner;
	}

	boolean isOpen() {
		return this.connection.isOpen();
	}

	boolean isSubscribed(String channel) {
		return this.subscribed.contains(channel);
	}

	/**
	 * Subscribe to the channel or unsubscribe from it.
	 */
	void change(String channel, boolean wanted) {
		if (wanted) {
			this.subscribed.add(channel);
			watch(this.connection.async().ssubscribe(channel), channel);
		}
		else {
			this.subscribed.remove(channel);
			watch(this.connection.async().sunsubscribe(channel), channel);
		}
	}

	/**
	 * Subscribe again to every channel subscribed, on the node that serves it now.
	 */
	void resubscribeAll() {
		for (String channel : Set.copyOf(this.subscribed)) {
			watch(this.connection.async().ssubscribe(channel), channel);
		}
	}

	/**
	 * Unsubscribe from everything by closing the connection.
	 */
	void close() {
		this.subscribed.clear();
		this.connection.closeAsync();
	}

	private void watch(RedisFuture<Void> command, String channel) {
		// A copy, so that the timeout does not complete Lettuce's own command: one sent
		// to a node that died stays queued there, and would otherwise never answer.
		command.toCompletableFuture()
			.copy()
			.orTimeout(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
			.whenCompleteAsync((result, ex) -> {
				if (ex != null) {
					failed(channel, ex);
				}
			});
	}

	private void failed(String channel, Throwable ex) {
		this.lock.lock();
		try {
			String message = String.valueOf(ex.getMessage());
			this.subscribed.remove(channel);
			if (!this.owner.isCurrent(this)) {
				return;
			}
			if (message.contains("unknown command")) {
				this.owner.noShardedPubSub();
			}
			else if (message.contains("NOPERM")) {
				this.owner.forbidden(ex);
			}
			else {
				logger.debug("Could not subscribe to " + channel + "; its waiters poll meanwhile, and it is tried "
						+ "again in " + RETRY.toMillis() + "ms", ex);
				CompletableFuture.delayedExecutor(RETRY.toMillis(), TimeUnit.MILLISECONDS)
					.execute(() -> retry(channel));
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Subscribe to the channel again if its lock is still waited for: after a failover
	 * the first attempts may go to a node that no longer serves it.
	 */
	private void retry(String channel) {
		this.lock.lock();
		try {
			String resource = RedisLockKeys.resourceOfChannel(channel);
			if (this.owner.isCurrent(this) && resource != null && this.waiter.isWaitedFor(resource)
					&& this.subscribed.add(channel)) {
				watch(this.connection.async().ssubscribe(channel), channel);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The subscriptions that channels serve, called holding their lock.
	 */
	interface Owner {

		/**
		 * Tell whether the given channels are the ones the subscriptions use now.
		 */
		boolean isCurrent(ShardedChannels channels);

		/**
		 * Fall back on classic channels: Redis has no sharded pub/sub (before 7).
		 */
		void noShardedPubSub();

		/**
		 * Turn release notifications off: the Redis user may not subscribe.
		 */
		void forbidden(Throwable ex);

	}

}
