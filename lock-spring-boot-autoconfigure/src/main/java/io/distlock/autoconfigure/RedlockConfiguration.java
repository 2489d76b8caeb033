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

import java.util.List;

import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.redlock.RedlockClient;
import io.distlock.redlock.RedlockNodes;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.OnPropertyListCondition;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * Puts every lock on Redlock when {@code distlock.redlock.nodes} is set: one connection
 * factory per node, a {@link RedlockClient} over them, and a release notifier per node.
 * The application's own Redis connection keeps serving everything else.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(RedlockConfiguration.OnRedlockNodesCondition.class)
class RedlockConfiguration {

	private static final String NODES = "distlock.redlock.nodes";

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RedlockNodes redlockNodes(DistLockProperties properties, ResourceLoader resourceLoader,
			ObjectProvider<SslBundles> sslBundles) {
		DistLockProperties.Redlock redlock = properties.getRedlock();
		List<String> nodes = redlock.getNodes();
		if (!ClassUtils.isPresent("io.lettuce.core.RedisClient", resourceLoader.getClassLoader())) {
			throw new InvalidDistLockPropertyException(NODES, redacted(nodes),
					NODES + " is set, but Redlock connects to its nodes with Lettuce, which is not on the class path",
					"Add io.lettuce:lettuce-core, or remove " + NODES + " to lock on spring.data.redis");
		}
		if (nodes.size() < 3) {
			throw new InvalidDistLockPropertyException(NODES, redacted(nodes),
					NODES + " lists " + nodes.size() + " node" + ((nodes.size() != 1) ? "s" : "")
							+ ", but Redlock needs at least 3 independent Redis masters",
					"List an odd number of at least 3 independent Redis masters in " + NODES + " (3 tolerate the "
							+ "loss of 1, 5 the loss of 2), or remove it to lock on spring.data.redis");
		}
		int minReplicas = properties.getReplication().getMinReplicas();
		if (minReplicas > 0) {
			throw new InvalidDistLockPropertyException("distlock.replication.min-replicas", minReplicas,
					"distlock.replication.min-replicas is " + minReplicas + ", but " + NODES + " is set: replica "
							+ "acknowledgement applies to locks on spring.data.redis, while Redlock is made safe by "
							+ "its quorum of independent masters",
					"Remove distlock.replication.min-replicas to lock on Redlock, or remove " + NODES
							+ " to lock on spring.data.redis with replica acknowledgement");
		}
		String bundle = redlock.getSslBundle();
		@Nullable SslOptions sslOptions = (bundle != null) ? RedlockSsl.options(sslBundles.getObject(), bundle) : null;
		try {
			return RedlockNodes.connect(nodes, redlock.getNodeTimeout(), sslOptions);
		}
		catch (IllegalArgumentException ex) {
			// The message names the node by its index and shows at most its scheme.
			throw new InvalidDistLockPropertyException(NODES, redacted(nodes), String.valueOf(ex.getMessage()),
					"Write each node as redis://[[user]:password@]host[:port][/database] naming one standalone "
							+ "Redis master, or as rediss://... for TLS (every node, when distlock.redlock.ssl-bundle "
							+ "is set), with a ',', '@', '/', '#' or '%' in the user or password percent-encoded",
					ex);
		}
	}

	private static List<String> redacted(List<String> nodes) {
		return nodes.stream().map(RedlockNodes::redact).toList();
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(LockClient.class)
	RedlockClient lockClient(RedlockNodes nodes, DistLockProperties properties) {
		DistLockProperties.Redlock redlock = properties.getRedlock();
		nodes.clients().forEach((client) -> client.setFencingCounterRetention(properties.getFencingCounterRetention()));
		return new RedlockClient(nodes.clients(), redlock.getClockDriftFactor(), redlock.getNodeTimeout());
	}

	@Bean
	RedlockReleaseNotifiers redlockReleaseNotifiers(RedlockNodes nodes, LockWaiter lockWaiter) {
		return new RedlockReleaseNotifiers(nodes.connectionFactories()
			.stream()
			.map((factory) -> new RedisReleaseNotifier(factory, lockWaiter))
			.toList());
	}

	/**
	 * Matches when {@code distlock.redlock.nodes} is set, as a YAML list or as a
	 * comma-separated value.
	 */
	static class OnRedlockNodesCondition extends OnPropertyListCondition {

		OnRedlockNodesCondition() {
			super("distlock.redlock.nodes", () -> ConditionMessage.forCondition("Redlock nodes"));
		}

	}

}
