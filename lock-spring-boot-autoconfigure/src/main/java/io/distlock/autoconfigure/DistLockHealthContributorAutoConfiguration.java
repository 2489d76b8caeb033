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

import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisLockClient;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.redlock.RedlockNodes;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code distlock} health contributor, shown as
 * {@code components.distlock} in {@code /actuator/health}: the reachability of the lock
 * backend (Redis, or a majority of the Redlock nodes), the release subscription and the
 * renewal of held locks.
 *
 * <p>
 * Applies when Spring Boot's health support is present, for the lock backends distlock
 * configures itself; turned off with {@code management.health.distlock.enabled=false}.
 * Backs off, as Spring Boot's own health contributors do, for a bean named
 * {@code distlockHealthIndicator} or {@code distlockHealthContributor}: either would be
 * registered as {@code distlock} too.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, RedisConnectionFactory.class,
		LeaseRenewer.class })
@ConditionalOnEnabledHealthIndicator("distlock")
@Import({ DistLockHealthContributorAutoConfiguration.RedlockHealthConfiguration.class,
		DistLockHealthContributorAutoConfiguration.RedisHealthConfiguration.class })
public final class DistLockHealthContributorAutoConfiguration {

	static final String BEAN_NAME = "distlockHealthIndicator";

	static final String CONTRIBUTOR_BEAN_NAME = "distlockHealthContributor";

	/**
	 * Locks on Redlock: the health of its nodes and of their release subscriptions.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(RedlockNodes.class)
	static class RedlockHealthConfiguration {

		@Bean(BEAN_NAME)
		@ConditionalOnMissingBean(name = { BEAN_NAME, CONTRIBUTOR_BEAN_NAME })
		DistLockHealthIndicator distlockHealthIndicator(RedlockNodes nodes,
				ObjectProvider<RedlockReleaseNotifiers> notifiers, ObjectProvider<LeaseRenewer> leaseRenewer) {
			return new DistLockHealthIndicator(DistLockHealthIndicator.Backend.redlock(nodes), () -> {
				RedlockReleaseNotifiers nodeNotifiers = notifiers.getIfUnique();
				return (nodeNotifiers != null) ? nodeNotifiers.isSubscribed() : null;
			}, leaseRenewer.getIfUnique());
		}

	}

	/**
	 * Locks on the application's Redis: its health and that of the release subscription.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean({ RedisLockClient.class, RedisConnectionFactory.class })
	@ConditionalOnMissingBean(RedlockNodes.class)
	static class RedisHealthConfiguration {

		@Bean(BEAN_NAME)
		@ConditionalOnMissingBean(name = { BEAN_NAME, CONTRIBUTOR_BEAN_NAME })
		DistLockHealthIndicator distlockHealthIndicator(RedisConnectionFactory connectionFactory,
				ObjectProvider<RedisReleaseNotifier> notifier, ObjectProvider<LeaseRenewer> leaseRenewer) {
			// Looked up on each check: a notifier bean of the application's own may be
			// declared as a SmartLifecycle, and is known by its own type only once
			// created.
			return new DistLockHealthIndicator(DistLockHealthIndicator.Backend.redis(connectionFactory), () -> {
				RedisReleaseNotifier releaseNotifier = notifier.getIfUnique();
				return (releaseNotifier != null) ? releaseNotifier.isSubscribed() : null;
			}, leaseRenewer.getIfUnique());
		}

	}

}
