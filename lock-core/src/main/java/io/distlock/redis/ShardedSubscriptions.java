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
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The sharded subscriptions of a {@link ShardedReleaseNotifier}: subscribes a lock's
 * release channel while a thread here waits for it, on a connection opened in the
 * background, and subscribes everything again after the cluster's topology changed.
 *
 * <p>
 * Each method holds one lock, which a waiting thread takes to change a subscription;
 * Lettuce's event loop must never wait for it, so failed commands are handled off that
 * loop. On Redis before 7 it falls back on the classic notifier; when the Redis user may
 * not subscribe, waiters poll.
 */
final class ShardedSubscriptions {

	private static final Duration RETRY = Duration.ofSeconds(1);

	// How long a subscription may go unanswered before it is taken as failed.
	private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(ShardedReleaseNotifier.class);

	private final LettuceConnectionFactory connectionFactory;

	private final LockWaiter waiter;

	private final RedisReleaseNotifier classic;

	// A lock, not a monitor: waiting threads enter it, and a virtual thread that blocks
	// on a monitor pins its carrier (before Java 24).
	private final Lock lock = new ReentrantLock();

	private final Set<String> subscribed = new HashSet<>();

	private @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private @Nullable Disposable topologyChanges;

	private boolean running;

	private boolean connecting;

	private volatile Mode mode = Mode.SHARDED;

	ShardedSubscriptions(LettuceConnectionFactory connectionFactory, LockWaiter waiter, RedisReleaseNotifier classic) {
		this.connectionFactory = connectionFactory;
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
			this.running = true;
			if (this.mode == Mode.CLASSIC) {
				this.classic.start();
				return;
			}
			this.waiter.setInterest(this::changed);
			connection();
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
			StatefulRedisClusterPubSubConnection<String, String> connection = this.connection;
			this.connection = null;
			this.subscribed.clear();
			Disposable topologyChanges = this.topologyChanges;
			this.topologyChanges = null;
			if (topologyChanges != null) {
				topologyChanges.dispose();
			}
			if (connection != null) {
				connection.closeAsync();
			}
		}
		finally {
			this.lock.unlock();
		}
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
			StatefulRedisClusterPubSubConnection<String, String> connection = this.connection;
			return this.running && this.mode == Mode.SHARDED && connection != null && connection.isOpen();
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
			if (wanted == this.subscribed.contains(channel)) {
				return;
			}
			StatefulRedisClusterPubSubConnection<String, String> connection = connection();
			if (connection == null) {
				// Subscribed once connected, if still waited for then.
				return;
			}
			subscribe(connection, channel, wanted);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void subscribe(StatefulRedisClusterPubSubConnection<String, String> connection, String channel,
			boolean wanted) {
		if (wanted) {
			this.subscribed.add(channel);
			failed(connection.async().ssubscribe(channel), channel);
		}
		else {
			this.subscribed.remove(channel);
			failed(connection.async().sunsubscribe(channel), channel);
		}
	}

	private @Nullable StatefulRedisClusterPubSubConnection<String, String> connection() {
		StatefulRedisClusterPubSubConnection<String, String> connection = this.connection;
		if (connection != null) {
			return connection;
		}
		if (!this.connecting) {
			connect(Duration.ZERO);
		}
		return null;
	}

	/**
	 * Connect in the background, so that no waiting thread waits for a Redis that cannot
	 * be reached: until then its waiters poll.
	 */
	private void connect(Duration delay) {
		AbstractRedisClient client = this.connectionFactory.getNativeClient();
		if (!(client instanceof RedisClusterClient clusterClient)) {
			logger.warn("Release notifications are off: " + ShardedReleaseNotifier.class.getSimpleName()
					+ " needs a Lettuce connection factory for Redis Cluster; waiting callers poll instead");
			this.mode = Mode.OFF;
			return;
		}
		this.connecting = true;
		CompletableFuture.runAsync(() -> {
		}, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS)).thenCompose((ignored) -> {
			// Connecting asynchronously needs the cluster's topology, which the client
			// only loads on its first synchronous connection: this thread may wait for
			// it, no caller does.
			clusterClient.getPartitions();
			return clusterClient.connectPubSubAsync(StringCodec.UTF8);
		}).whenComplete(this::connected);
	}

	private void connected(@Nullable StatefulRedisClusterPubSubConnection<String, String> connection,
			@Nullable Throwable failure) {
		this.lock.lock();
		try {
			this.connecting = false;
			if (connection == null) {
				logger.debug("Could not connect for release notifications; waiting callers poll meanwhile", failure);
				if (this.running && this.mode == Mode.SHARDED) {
					connect(RETRY);
				}
				return;
			}
			if (!this.running) {
				connection.closeAsync();
				return;
			}
			connection.addListener(new ShardedReleaseListener(this.waiter));
			this.connection = connection;
			// Threads that began waiting while there was no connection.
			this.waiter.waitedFor().forEach(this::changed);
			AbstractRedisClient client = this.connectionFactory.getNativeClient();
			if (client != null && this.topologyChanges == null) {
				this.topologyChanges = client.getResources()
					.eventBus()
					.get()
					.filter(ClusterTopologyChangedEvent.class::isInstance)
					.subscribe((event) -> resubscribe());
			}
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
			StatefulRedisClusterPubSubConnection<String, String> connection = this.connection;
			if (!this.running || this.mode != Mode.SHARDED || connection == null) {
				return;
			}
			for (String channel : Set.copyOf(this.subscribed)) {
				failed(connection.async().ssubscribe(channel), channel);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void failed(RedisFuture<Void> command, String channel) {
		// A copy, so that the timeout does not complete Lettuce's own command: one sent
		// to
		// a node that died stays queued there, and would otherwise never answer. Handled
		// off Lettuce's event loop, which must never wait for this lock.
		command.toCompletableFuture()
			.copy()
			.orTimeout(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
			.whenCompleteAsync((result, ex) -> {
				if (ex != null) {
					onFailure(channel, ex);
				}
			});
	}

	/**
	 * Subscribe to the channel again if its lock is still waited for: after a failover
	 * the first attempts may go to a node that no longer serves it.
	 */
	private void retry(String channel) {
		this.lock.lock();
		try {
			StatefulRedisClusterPubSubConnection<String, String> connection = this.connection;
			String resource = RedisLockKeys.resourceOfChannel(channel);
			if (this.running && this.mode == Mode.SHARDED && connection != null && resource != null
					&& this.waiter.isWaitedFor(resource) && this.subscribed.add(channel)) {
				failed(connection.async().ssubscribe(channel), channel);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void onFailure(String channel, Throwable ex) {
		this.lock.lock();
		try {
			String message = String.valueOf(ex.getMessage());
			this.subscribed.remove(channel);
			if (this.mode != Mode.SHARDED || !this.running) {
				return;
			}
			if (message.contains("unknown command")) {
				// Redis before 7: the lock client publishes classic messages there.
				logger.info("Redis has no sharded pub/sub (SSUBSCRIBE, Redis 7 and later); "
						+ "subscribing to classic release channels instead");
				this.mode = Mode.CLASSIC;
				this.waiter.setInterest(null);
				this.classic.start();
				this.waiter.signalAll();
			}
			else if (message.contains("NOPERM")) {
				logger.warn(RedisReleaseNotifier.notificationsOff(this.waiter, ex));
				this.mode = Mode.OFF;
				this.waiter.setInterest(null);
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

	private enum Mode {

		SHARDED, CLASSIC, OFF

	}

}
