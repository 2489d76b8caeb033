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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Opens the sharded pub/sub connection of {@link ShardedSubscriptions} in the background,
 * so that no waiting thread waits for a Redis that cannot be reached, and tells of the
 * cluster's topology changes once connected. Its owner calls it holding its lock.
 */
final class ShardedConnector {

	private static final Duration RETRY = Duration.ofSeconds(1);

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(ShardedReleaseNotifier.class);

	private final LettuceConnectionFactory connectionFactory;

	private final BiConsumer<@Nullable StatefulRedisClusterPubSubConnection<String, String>, @Nullable Throwable> connected;

	private boolean connecting;

	private @Nullable Disposable topologyChanges;

	/**
	 * Create a connector.
	 * @param connected told of the connection once open, or of why it could not be
	 * opened, on a thread that does not hold the owner's lock
	 */
	ShardedConnector(LettuceConnectionFactory connectionFactory,
			BiConsumer<@Nullable StatefulRedisClusterPubSubConnection<String, String>, @Nullable Throwable> connected) {
		this.connectionFactory = connectionFactory;
		this.connected = connected;
	}

	/**
	 * Start connecting, unless connecting already.
	 * @return {@code false} if the factory is no Lettuce factory for Redis Cluster, which
	 * was logged
	 */
	boolean connect() {
		return this.connecting || connect(Duration.ZERO);
	}

	/**
	 * Take note that the attempt to connect ended, with or without a connection.
	 */
	void ended() {
		this.connecting = false;
	}

	/**
	 * Try to connect again a second from now, after an attempt failed.
	 * @return {@code false} if the factory is no Lettuce factory for Redis Cluster
	 */
	boolean connectAgain() {
		return connect(RETRY);
	}

	/**
	 * Run the action whenever the cluster's topology changes, from now until
	 * {@link #close()}.
	 */
	void watchTopology(Runnable action) {
		AbstractRedisClient client = this.connectionFactory.getNativeClient();
		if (client != null && this.topologyChanges == null) {
			this.topologyChanges = client.getResources()
				.eventBus()
				.get()
				.filter(ClusterTopologyChangedEvent.class::isInstance)
				.subscribe((event) -> action.run());
		}
	}

	/**
	 * Stop watching the topology.
	 */
	void close() {
		Disposable topologyChanges = this.topologyChanges;
		this.topologyChanges = null;
		if (topologyChanges != null) {
			topologyChanges.dispose();
		}
	}

	private boolean connect(Duration delay) {
		AbstractRedisClient client = this.connectionFactory.getNativeClient();
		if (!(client instanceof RedisClusterClient clusterClient)) {
			logger.warn("Release notifications are off: RedisReleaseNotifier.sharded(...) needs a Lettuce "
					+ "connection factory for Redis Cluster; waiting callers poll instead");
			return false;
		}
		this.connecting = true;
		CompletableFuture.runAsync(() -> {
		}, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS)).thenCompose((ignored) -> {
			// Connecting asynchronously needs the cluster's topology, which the client
			// only loads on its first synchronous connection: this thread may wait for
			// it, no caller does.
			clusterClient.getPartitions();
			return clusterClient.connectPubSubAsync(StringCodec.UTF8);
		}).whenComplete(this.connected);
		return true;
	}

}
