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

import io.distlock.LockListener;
import io.distlock.LockSettings;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationConvention;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.redis.ReactiveRedisLockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for reactive locks: a {@link ReactiveLockTemplate}, which also
 * locks {@code @DistributedLocked} methods returning {@code Mono} or {@code Flux} and
 * Kotlin {@code suspend} functions.
 *
 * <p>
 * Needs Reactor and a {@link ReactiveRedisConnectionFactory} (Lettuce's factory is one),
 * and locks on the same Redis, with the same waiter and {@link LockSettings} (key prefix,
 * lease renewer, listeners, observations, held-lock registry) as the
 * {@link io.distlock.LockTemplate}, so that reactive and blocking callers of one key
 * exclude each other. Not available with Redlock, with a lock store other than
 * {@link RedisLockClient}, nor with {@code distlock.replication.min-replicas} (its
 * {@code WAIT} would hold up the shared connection).
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration")
@ConditionalOnClass(name = { "reactor.core.publisher.Mono", "io.distlock.reactive.ReactiveLockTemplate",
		"org.springframework.data.redis.core.ReactiveStringRedisTemplate" })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "distlock.replication.min-replicas", havingValue = "0", matchIfMissing = true)
public final class DistLockReactiveAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean({ RedisLockClient.class, ReactiveRedisConnectionFactory.class, LockEngine.class })
	ReactiveLockTemplate reactiveLockTemplate(ReactiveRedisConnectionFactory connectionFactory, LockEngine lockEngine,
			DistLockProperties properties) {
		ReactiveRedisLockClient client = new ReactiveRedisLockClient(connectionFactory);
		client.setFencingCounterRetention(properties.getFencingCounterRetention());
		if (connectionFactory instanceof RedisConnectionFactory blocking) {
			client.setShardedReleaseMessages(LettuceFactories.isCluster(blocking));
			Duration commandTimeout = LettuceFactories.commandTimeout(blocking);
			if (commandTimeout != null) {
				client.setCommandTimeout(commandTimeout);
			}
		}
		client.afterPropertiesSet();
		return new ReactiveLockTemplate(client, lockEngine);
	}

}
