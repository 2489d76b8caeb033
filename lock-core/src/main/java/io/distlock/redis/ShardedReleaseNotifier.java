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

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import io.distlock.core.LockWaiter;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * Wakes the threads waiting for a lock on Redis Cluster through sharded pub/sub (Redis 7
 * and later): the lock's release channel is subscribed with {@code SSUBSCRIBE} while a
 * thread of this application waits for that lock, and unsubscribed when none does. A
 * sharded message travels only within the shard that serves the lock's slot, where a
 * classic message is broadcast to every node of the cluster: the cost of a release then
 * does not grow with the cluster, nor with the number of applications' subscriptions.
 *
 * <p>
 * After the cluster's topology changes (Lettuce's topology refresh noticed a failover
 * or a moved slot) every channel waited for is subscribed again, on the node that serves
 * it now, and its waiters are woken once that is confirmed, since a release may have
 * been missed in between.
 *
 * <p>
 * Pair it with {@link RedisLockClient#setShardedReleaseMessages(boolean)}. On Redis
 * before 7, which has no sharded channels, it falls back on a
 * {@link RedisReleaseNotifier}, and the lock client publishes classic messages; when the
 * Redis user may not subscribe, it logs one warning and waiters poll. Needs Lettuce.
 */
public class ShardedReleaseNotifier implements SmartLifecycle, AutoCloseable {

	private static final Duration RETRY = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(ShardedReleaseNotifier.class);

	private final LettuceConnectionFactory connectionFactory;

	private final LockWaiter waiter;

	private final RedisReleaseNotifier classic;

	private final Set<String> subscribed = new HashSet<>();

	private @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private @Nullable Disposable topologyChanges;

	private volatile boolean running;

	private boolean connecting;

	private volatile Mode mode = Mode.SHARDED;

	private int phase = RedisReleaseNotifier.DEFAULT_PHASE;

	/**
	 * Create a notifier that signals the given waiter.
	 * @param connectionFactory the factory of a Redis Cluster connection
	 * @param waiter the waiter that the lock template parks its callers with
	 */
	public ShardedReleaseNotifier(LettuceConnectionFactory connectionFactory, LockWaiter waiter) {
		Assert.notNull(connectionFactory, "'connectionFactory' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		this.connectionFactory = connectionFactory;
		this.waiter = waiter;
		this.classic = new RedisReleaseNotifier(connectionFactory, waiter);
	}

	/**
	 * Connect for subscriptions and follow the waiters from now on. Redis being
	 * unreachable does not fail the start: waiters poll until a subscription works.
	 */
	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		if (this.mode == Mode.CLASSIC) {
			this.classic.start();
			return;
		}
		this.waiter.setInterest(this::changed);
		connection();
	}

	/**
	 * Unsubscribe from everything and close the connection. Waiters keep working on their
	 * backoff.
	 */
	@Override
	public synchronized void stop() {
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

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

	/**
	 * Set the lifecycle phase; {@link RedisReleaseNotifier#DEFAULT_PHASE} by default.
	 * @param phase the phase
	 */
	public void setPhase(int phase) {
		this.phase = phase;
		this.classic.setPhase(phase);
	}

	/**
	 * Stop and release the resources of the subscriptions for good.
	 */
	@Override
	public void close() {
		stop();
		this.classic.close();
	}

	/**
	 * Bring the subscription of one lock in line with whether someone here waits for it.
	 * Runs on the waiting thread; the commands are sent without waiting for their answer.
	 */
	private synchronized void changed(String resource) {
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
			logger.warn("Release notifications are off: " + getClass().getSimpleName()
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

	private synchronized void connected(@Nullable StatefulRedisClusterPubSubConnection<String, String> connection,
			@Nullable Throwable failure) {
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
		connection.addListener(new ReleaseListener());
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

	/**
	 * Subscribe again to every channel waited for, after the cluster's topology changed:
	 * a failover or a moved slot can leave a subscription on a node that no longer serves
	 * its lock (Lettuce does not move sharded subscriptions), and releases would then go
	 * unheard. Each confirmation wakes that lock's waiters, in case a release was missed
	 * meanwhile.
	 */
	private synchronized void resubscribe() {
		StatefulRedisClusterPubSubConnection<String, String> connection = this.connection;
		if (!this.running || this.mode != Mode.SHARDED || connection == null) {
			return;
		}
		for (String channel : Set.copyOf(this.subscribed)) {
			failed(connection.async().ssubscribe(channel), channel);
		}
	}

	private void failed(RedisFuture<Void> command, String channel) {
		// Handled off Lettuce's event loop, which must never wait for this monitor.
		command.whenCompleteAsync((result, ex) -> {
			if (ex != null) {
				onFailure(channel, ex);
			}
		});
	}

	private synchronized void onFailure(String channel, Throwable ex) {
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
			logger.debug("Could not subscribe to " + channel + "; its waiters poll meanwhile", ex);
		}
	}

	private enum Mode {

		SHARDED, CLASSIC, OFF

	}

	/**
	 * Turns messages into signals, and a new subscription into a signal for the waiters
	 * of its lock, which may have missed a release before it was in place.
	 */
	private final class ReleaseListener extends RedisClusterPubSubAdapter<String, String> {

		@Override
		public void smessage(RedisClusterNode node, String channel, String message) {
			ShardedReleaseNotifier.this.waiter.signal(message);
		}

		@Override
		public void ssubscribed(RedisClusterNode node, String channel, long count) {
			int separator = channel.indexOf(RedisLockKeys.SEPARATOR);
			if (separator >= 0) {
				ShardedReleaseNotifier.this.waiter.signalResource(channel.substring(separator + 1));
			}
		}

	}

}
