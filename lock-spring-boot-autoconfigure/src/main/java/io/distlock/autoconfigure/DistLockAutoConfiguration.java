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

import java.time.Duration;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.distlock.LockAdministration;
import io.distlock.LockListener;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationConvention;
import io.distlock.redis.RedisLockClient;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.redlock.RedlockNodes;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for distributed locks on the application's Redis: a
 * {@link LockTemplate} and support for {@code @DistributedLocked}.
 *
 * <p>
 * With {@code distlock.redlock.nodes} set, every lock goes through Redlock on those nodes
 * instead, while {@code spring.data.redis.*} keeps serving the application's other Redis
 * uses. Backs off when Spring Data Redis is absent or {@code distlock.enabled=false}.
 * Every bean can be replaced by defining one of the same type; defining a
 * {@link LockClient} bean puts locks on another store.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(name = { "io.distlock.LockTemplate", "org.springframework.data.redis.core.StringRedisTemplate" })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistLockProperties.class)
@Import({ RedlockConfiguration.class, ProxyLockConfiguration.class, AspectJLockConfiguration.class })
public final class DistLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockClient.class)
	@ConditionalOnBean(RedisConnectionFactory.class)
	RedisLockClient lockClient(RedisConnectionFactory connectionFactory, DistLockProperties properties) {
		RedisLockClient client = new RedisLockClient(connectionFactory);
		client.setFencingCounterRetention(properties.getFencingCounterRetention());
		client.setShardedReleaseMessages(LettuceFactories.isCluster(connectionFactory));
		DistLockProperties.Replication replication = properties.getReplication();
		if (replication.getMinReplicas() > 0) {
			checkReplicationTimeout(replication.getTimeout(), LettuceFactories.commandTimeout(connectionFactory));
		}
		client.setReplicaAcknowledgement(replication.getMinReplicas(), replication.getTimeout());
		return client;
	}

	/**
	 * WAIT runs on the lock connection, whose command timeout would cut a longer wait
	 * short with an error instead of the replica shortfall.
	 */
	private static void checkReplicationTimeout(Duration timeout, @Nullable Duration commandTimeout) {
		if (commandTimeout != null && timeout.compareTo(commandTimeout) >= 0) {
			throw new InvalidDistLockPropertyException("distlock.replication.timeout", timeout.toMillis() + "ms",
					"distlock.replication.timeout (" + timeout.toMillis()
							+ "ms) must be shorter than the Redis command timeout, spring.data.redis.timeout ("
							+ commandTimeout.toMillis() + "ms): the wait for replicas runs as a command on the lock "
							+ "connection, and the command timeout would end it first",
					"Set distlock.replication.timeout below " + commandTimeout.toMillis()
							+ "ms, or raise spring.data.redis.timeout above " + timeout.toMillis() + "ms");
		}
	}

	@Bean
	@ConditionalOnBean(RedisConnectionFactory.class)
	FailoverFencingWarning failoverFencingWarning(RedisConnectionFactory connectionFactory,
			DistLockProperties properties, ListableBeanFactory beanFactory) {
		return new FailoverFencingWarning(connectionFactory, properties.getReplication().getMinReplicas(), beanFactory);
	}

	@Bean
	@ConditionalOnMissingBean
	LockWaiter lockWaiter() {
		return new LockWaiter(Duration.ofMillis(500));
	}

	@Bean
	@ConditionalOnMissingBean({ RedisReleaseNotifier.class, RedlockNodes.class })
	@ConditionalOnBean(RedisConnectionFactory.class)
	RedisReleaseNotifier releaseNotifier(RedisConnectionFactory connectionFactory, LockWaiter lockWaiter) {
		return ReleaseNotifiers.create(connectionFactory, lockWaiter);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockClient.class)
	LeaseRenewer leaseRenewer(LockClient lockClient, DistLockProperties properties) {
		return new LeaseRenewer(lockClient, properties.getMaxHold());
	}

	@Bean
	@ConditionalOnMissingBean
	LockEventPublisher lockEventPublisher(ApplicationEventPublisher eventPublisher) {
		return new LockEventPublisher(eventPublisher);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockClient.class)
	LockSettings lockSettings(DistLockProperties properties, ObjectProvider<LockListener> listeners,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockObservationConvention> observationConvention, Environment environment) {
		LockSettings.Builder settings = LockSettings.builder()
			.keyPrefix(properties.getKeyPrefix())
			.instanceName(instanceName(properties.getInstanceName(), environment))
			.describeHolders(properties.isDescribeHolders())
			.lockListeners(listeners.orderedStream().toList())
			.observationConvention(observationConvention.getIfAvailable(
					() -> new DefaultLockObservationConvention(properties.getObservation().isIncludeKey())));
		observationRegistry.ifAvailable(settings::observationRegistry);
		return settings.build();
	}

	private static String instanceName(@Nullable String instanceName, Environment environment) {
		if (instanceName == null) {
			String application = environment.getProperty("spring.application.name");
			String name = (application != null && !application.isBlank())
					? application + "@" + LockSettings.defaultInstanceName() : LockSettings.defaultInstanceName();
			return (name.length() <= LockSettings.MAX_INSTANCE_NAME_LENGTH) ? name
					: name.substring(0, LockSettings.MAX_INSTANCE_NAME_LENGTH);
		}
		try {
			LockSettings.builder().instanceName(instanceName);
			return instanceName;
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidDistLockPropertyException("distlock.instance-name", instanceName,
					"distlock.instance-name is not a valid instance name: " + ex.getMessage(),
					"Use a name of at most " + LockSettings.MAX_INSTANCE_NAME_LENGTH
							+ " characters without control characters, such as orders-1, or leave it unset",
					ex);
		}
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean({ LockClient.class, LockSettings.class, LeaseRenewer.class })
	LockEngine lockEngine(LockClient lockClient, LockWaiter lockWaiter, LockSettings lockSettings,
			LeaseRenewer leaseRenewer) {
		return new LockEngine(lockClient, lockWaiter, lockSettings, leaseRenewer);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockEngine.class)
	LockTemplate lockTemplate(LockEngine lockEngine) {
		return new LockTemplate(lockEngine);
	}

	@Bean
	@ConditionalOnBean(LockAdministration.class)
	HeldLocksShutdown heldLocksShutdown(LockAdministration locks, Environment environment) {
		return new HeldLocksShutdown(() -> locks.getHeldLocks().size(), locks::releaseHeldLocks,
				HeldLocksShutdown.gracePeriod(environment));
	}

	@Bean
	@ConditionalOnBean(LockAdministration.class)
	HeldLocksPause heldLocksPause(ApplicationContext context, LockAdministration locks,
			ObjectProvider<RedisConnectionFactory> connectionFactories) {
		return new HeldLocksPause(context, () -> locks.getHeldLocks().size(), connectionFactories);
	}

}
