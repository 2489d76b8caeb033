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

import io.distlock.core.LockClient;
import io.distlock.core.LockWaiter;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.redlock.RedlockClient;
import io.distlock.redlock.RedlockNodes;

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

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RedlockNodes redlockNodes(DistLockProperties properties, ResourceLoader resourceLoader,
			ObjectProvider<SslBundles> sslBundles) {
		if (!ClassUtils.isPresent("io.lettuce.core.RedisClient", resourceLoader.getClassLoader())) {
			throw new IllegalStateException("distlock.redlock.nodes is set, but Redlock connects to its nodes with "
					+ "Lettuce, which is not on the class path: add io.lettuce:lettuce-core, or remove "
					+ "distlock.redlock.nodes to lock on spring.data.redis");
		}
		DistLockProperties.Redlock redlock = properties.getRedlock();
		List<String> nodes = redlock.getNodes();
		if (nodes.size() < 3) {
			throw new IllegalStateException("distlock.redlock.nodes lists " + nodes.size() + " node"
					+ ((nodes.size() != 1) ? "s" : "") + ", but Redlock needs at least 3 independent Redis masters "
					+ "(5 tolerate the loss of 2); list at least 3, or remove distlock.redlock.nodes to lock on "
					+ "spring.data.redis");
		}
		if (properties.getReplication().getMinReplicas() > 0) {
			throw new IllegalStateException("distlock.replication.min-replicas is "
					+ properties.getReplication().getMinReplicas() + ", but distlock.redlock.nodes is set: replica "
					+ "acknowledgement applies to locks on spring.data.redis, while Redlock is made safe by its quorum "
					+ "of independent masters; remove one of the two");
		}
		String bundle = redlock.getSslBundle();
		return RedlockNodes.connect(nodes, redlock.getNodeTimeout(),
				(bundle != null) ? RedlockSsl.options(sslBundles.getObject(), bundle) : null);
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
