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

package io.distlock.cluster;

import java.time.Duration;

import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.redis.ReactiveRedisLockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisConnections;
import io.distlock.waiting.LockWaiter;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One application using distlock on a Redis Cluster, wired as the auto-configuration does
 * it there: its own connection factory, a lock client publishing sharded release
 * messages, a sharded {@link RedisReleaseNotifier}, a lease renewer, a template and a
 * reactive template.
 */
final class ClusterApplication implements AutoCloseable {

	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	final LettuceConnectionFactory connectionFactory;

	final RedisLockClient client;

	final LockWaiter waiter;

	final RedisReleaseNotifier notifier;

	final LeaseRenewer renewer;

	final LockTemplate template;

	final ReactiveLockTemplate reactiveTemplate;

	private ClusterApplication(RedisCluster cluster, LockWaiter waiter, int minReplicas) {
		this.connectionFactory = connectionFactory(cluster);
		this.client = new RedisLockClient(this.connectionFactory);
		this.client.setShardedReleaseMessages(true);
		if (minReplicas > 0) {
			this.client.setReplicaAcknowledgement(minReplicas, Duration.ofMillis(100));
		}
		this.client.afterPropertiesSet();
		this.waiter = waiter;
		this.notifier = RedisReleaseNotifier.sharded(this.connectionFactory, waiter);
		this.notifier.start();
		this.renewer = new LeaseRenewer(this.client, Duration.ofHours(1));
		this.template = new LockTemplate(new LockEngine(this.client, waiter, LockSettings.defaults(), this.renewer));
		ReactiveRedisLockClient reactiveClient = new ReactiveRedisLockClient(this.connectionFactory);
		reactiveClient.setShardedReleaseMessages(true);
		reactiveClient.afterPropertiesSet();
		this.reactiveTemplate = new ReactiveLockTemplate(reactiveClient, this.template.getEngine());
	}

	/**
	 * Start an application whose waiters poll at most every 100 ms without a
	 * notification.
	 */
	static ClusterApplication start(RedisCluster cluster) {
		return start(cluster, new LockWaiter(Duration.ofMillis(100)));
	}

	static ClusterApplication start(RedisCluster cluster, LockWaiter waiter) {
		return new ClusterApplication(cluster, waiter, 0);
	}

	/**
	 * Start an application whose acquisitions count only once the given number of
	 * replicas acknowledged them within 100 ms.
	 */
	static ClusterApplication withReplicaAcknowledgement(RedisCluster cluster, int minReplicas) {
		return new ClusterApplication(cluster, new LockWaiter(Duration.ofMillis(100)), minReplicas);
	}

	/**
	 * A connection factory as we recommend it for Redis Cluster: adaptive topology
	 * refresh, so that a failover or a moved slot is followed at the first redirect or
	 * reconnect, and a periodic refresh as a backstop.
	 */
	static LettuceConnectionFactory connectionFactory(RedisCluster cluster) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(COMMAND_TIMEOUT)
			.clientOptions(ClusterClientOptions.builder()
				.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
					.enableAllAdaptiveRefreshTriggers()
					.enablePeriodicRefresh(Duration.ofSeconds(1))
					.build())
				.build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(cluster.nodeAddresses()), client);
		factory.afterPropertiesSet();
		factory.start();
		// Connected and warmed up as in a running application: the first command of a
		// JVM takes over a second, longer than the shortest leases of the tests.
		factory.getClusterConnection().ping();
		return factory;
	}

	@Override
	public void close() {
		this.renewer.close();
		this.notifier.close();
		RedisConnections.destroy(this.connectionFactory);
	}

}
