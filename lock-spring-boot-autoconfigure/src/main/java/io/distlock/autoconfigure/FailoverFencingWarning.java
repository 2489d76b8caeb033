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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.redis.RedisLockClient;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Warns at startup when fencing tokens are in use on Redis Sentinel or Cluster without
 * {@code distlock.replication.min-replicas}. After a failover the old primary can go on
 * granting locks until it is demoted, and its grants are lost; the new primary's tokens
 * pass them only if its first grant reads a later clock than the old primary's last grant
 * did, that is while the two clocks differ by less than the time from the old primary's
 * last grant to the new primary's first (docs/deployments.md). With {@code min-replicas}
 * those grants are not acknowledged by the promoted replica and fail instead.
 * <p>
 * Fencing is taken to be in use when a bean of the fencing kit is defined
 * ({@code JdbcFence}, {@code FencedRowUpdate}, {@code RedisFencedWrites}), and the locks
 * go to the application's Redis (a {@link RedisLockClient} bean, not Redlock).
 */
final class FailoverFencingWarning implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(FailoverFencingWarning.class);

	private static final List<String> FENCING_KIT = List.of("io.distlock.fencing.jdbc.JdbcFence",
			"io.distlock.fencing.jdbc.FencedRowUpdate", "io.distlock.fencing.redis.RedisFencedWrites");

	private final RedisConnectionFactory connectionFactory;

	private final int minReplicas;

	private final ListableBeanFactory beanFactory;

	FailoverFencingWarning(RedisConnectionFactory connectionFactory, int minReplicas, ListableBeanFactory beanFactory) {
		this.connectionFactory = connectionFactory;
		this.minReplicas = minReplicas;
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		String deployment = LettuceFactories.isCluster(this.connectionFactory) ? "Cluster"
				: LettuceFactories.isSentinel(this.connectionFactory) ? "Sentinel" : null;
		if (deployment == null || this.minReplicas > 0
				|| this.beanFactory.getBeanNamesForType(RedisLockClient.class, true, false).length == 0
				|| !fencingInUse()) {
			return;
		}
		logger.warn("Fencing tokens on Redis " + deployment + " without distlock.replication.min-replicas: after a "
				+ "failover the old primary can go on granting locks until it is demoted, and a token of the new "
				+ "primary is greater than those grants only while the two primaries' clocks differ by less than "
				+ "the time from the old primary's last grant to the new primary's first. Set "
				+ "distlock.replication.min-replicas=1 for fenced work, so that grants the promoted replica did "
				+ "not acknowledge fail instead (docs/deployments.md).");
	}

	private boolean fencingInUse() {
		ClassLoader classLoader = getClass().getClassLoader();
		// The JDBC kit's classes need Spring JDBC to be loaded.
		boolean jdbc = ClassUtils.isPresent("org.springframework.jdbc.core.JdbcTemplate", classLoader);
		for (String type : FENCING_KIT) {
			if ((jdbc || !type.contains(".jdbc.")) && ClassUtils.isPresent(type, classLoader) && this.beanFactory
				.getBeanNamesForType(ClassUtils.resolveClassName(type, classLoader), true, false).length > 0) {
				return true;
			}
		}
		return false;
	}

}
