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

import io.micrometer.observation.ObservationRegistry;

import io.distlock.LockListener;
import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.engine.LockEngine;
import io.distlock.leader.LeaderElection;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationConvention;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.util.Assert;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for leader election: a {@link LeaderElection} when
 * {@code distlock.leader.name} is set, on the application's lock store, with its key
 * waiter and {@link LockEngine} (key prefix, lock listeners, observations, and the
 * held-lock registry, so that the leadership lock is listed with the application's
 * locks).
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnProperty("distlock.leader.name")
@ConditionalOnBean(LockEngine.class)
public final class DistLockLeaderAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeaderElection leaderElection(LockEngine lockEngine, DistLockProperties properties) {
		String name = properties.getLeader().getName();
		// Set: this configuration is conditional on the property.
		Assert.state(name != null, "distlock.leader.name is not set");
		LeaderElection election;
		try {
			election = new LeaderElection(lockEngine, name);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidDistLockPropertyException("distlock.leader.name", name,
					"distlock.leader.name cannot be a lock key: " + ex.getMessage(),
					"Use a non-blank name of at most 1 KiB without control characters", ex);
		}
		try {
			election.setTtl(properties.getLeader().getTtl());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidDistLockPropertyException("distlock.leader.ttl", properties.getLeader().getTtl(),
					"distlock.leader.ttl cannot be a lease time: " + ex.getMessage(), "Use a ttl of at least "
							+ LockRequest.MIN_RENEWED_TTL.toMillis() + "ms and at most 365d, such as 10s",
					ex);
		}
		return election;
	}

}
