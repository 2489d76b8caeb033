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

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The sharded subscriptions of a {@link ShardedReleaseNotifier}: subscribes a lock's
 * release channel while a thread here waits for it, on a connection opened in the
 * background, and subscribes everything again after the cluster's topology changed.
 *
 * <p>
 * Each method holds one lock, which a waiting thread takes to change a subscription, and
 * {@link ShardedChannels} to handle a failed command. On Redis before 7 it falls back on
 * the classic notifier; when the Redis user may not subscribe, waiters poll.
 */
final class ShardedSubscriptions implements ShardedChannels.Owner {

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(ShardedReleaseNotifier.class);

	private final LockWaiter waiter;

	private final ClassicReleaseNotifier classic;

	// A lock, not a monitor: waiting threads enter it, and a virtual thread that blocks
	// on a monitor pins its carrier (before Java 24).
	private final Lock lock = new ReentrantLock();

	private @Nullable ShardedChannels channels;

	private final ShardedConnector connector;

	private volatile boolean running;

	private volatile Mode mode = Mode.SHARDED;

	ShardedSubscriptions(LettuceConnectionFactory factory, LockWaiter waiter, ClassicReleaseNotifier classic) {
		this.connector = new ShardedConnector(factory, this::connected);
		this.waiter = waiter;
		this.classic = classic;
	}

	/**
	 * Follow the waiters from now on, connecting in the background; on a Redis already
	 * found to lack sharded pub/sub, start the classic notifier instead.
	 */
	void start() {
		this.lock.lock();
		try {
			if (this.running) {
				return;
			}
			this.running = true;
			if (this.mode == Mode.CLASSIC) {
				this.classic.start();
				return;
			}
			this.waiter.setInterest(this::changed);
			connect();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop following the waiters, and unsubscribe from everything by closing the
	 * connection.
	 */
	void stop() {
		this.lock.lock();
		try {
			this.running = false;
			this.waiter.setInterest(null);
			this.classic.stop();
			this.connector.close();
			if (this.channels != null) {
				this.channels.close();
				this.channels = null;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Tell whether the subscriptions follow the waiters: started and not stopped since.
	 */
	boolean isRunning() {
		return this.running;
	}

	/**
	 * Tell whether releases reach the waiters: the sharded subscription connection is
	 * open, or the classic notifier, which replaced it on Redis before 7, is subscribed.
	 */
	boolean isConnected() {
		if (this.mode == Mode.CLASSIC) {
			return this.classic.isSubscribed();
		}
		this.lock.lock();
		try {
			ShardedChannels channels = this.channels;
			return this.running && this.mode == Mode.SHARDED && channels != null && channels.isOpen();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Bring the subscription of one lock in line with whether someone here waits for it.
	 * Runs on the waiting thread; the commands are sent without waiting for their answer.
	 */
	private void changed(String resource) {
		this.lock.lock();
		try {
			if (!this.running || this.mode != Mode.SHARDED) {
				return;
			}
			String channel = RedisLockKeys.of(resource).channel();
			boolean wanted = this.waiter.isWaitedFor(resource);
			ShardedChannels channels = this.channels;
			if (wanted == (channels != null && channels.isSubscribed(channel))) {
				return;
			}
			if (channels == null) {
				// Subscribed once connected, if still waited for then.
				connect();
				return;
			}
			channels.change(channel, wanted);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Connect in the background unless connected or connecting, so that no waiting thread
	 * waits for a Redis that cannot be reached: until then its waiters poll.
	 */
	private void connect() {
		if (this.channels == null && !this.connector.connect()) {
			this.mode = Mode.OFF;
		}
	}

	private void connected(@Nullable StatefulRedisClusterPubSubConnection<String, String> connection,
			@Nullable Throwable failure) {
		this.lock.lock();
		try {
			this.connector.ended();
			if (connection == null) {
				logger.debug("Could not connect for release notifications; waiting callers poll meanwhile", failure);
				if (this.running && this.mode == Mode.SHARDED && !this.connector.connectAgain()) {
					this.mode = Mode.OFF;
				}
				return;
			}
			if (!this.running) {
				connection.closeAsync();
				return;
			}
			this.channels = new ShardedChannels(connection, this.lock, this.waiter, this);
			// Threads that began waiting while there was no connection.
			this.waiter.waitedFor().forEach(this::changed);
			this.connector.watchTopology(this::resubscribe);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Subscribe again to every channel waited for, after the cluster's topology changed:
	 * a failover or a moved slot can leave a subscription on a node that no longer serves
	 * its lock (Lettuce does not move sharded subscriptions), and releases would then go
	 * unheard. Each confirmation wakes that lock's waiters, in case a release was missed
	 * meanwhile.
	 */
	private void resubscribe() {
		this.lock.lock();
		try {
			ShardedChannels channels = this.channels;
			if (channels != null && isCurrent(channels)) {
				channels.resubscribeAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean isCurrent(ShardedChannels channels) {
		return this.running && this.mode == Mode.SHARDED && this.channels == channels;
	}

	@Override
	public void noShardedPubSub() {
		// Redis before 7: the lock client publishes classic messages there.
		logger.info("Redis has no sharded pub/sub (SSUBSCRIBE, Redis 7 and later); "
				+ "subscribing to classic release channels instead");
		this.mode = Mode.CLASSIC;
		this.waiter.setInterest(null);
		this.classic.start();
		this.waiter.signalAll();
	}

	@Override
	public void forbidden(Throwable ex) {
		logger.warn(ClassicSubscription.notificationsOff(this.waiter, ex));
		this.mode = Mode.OFF;
		this.waiter.setInterest(null);
	}

	private enum Mode {

		SHARDED, CLASSIC, OFF

	}

}
