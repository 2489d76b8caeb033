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

import io.micrometer.core.instrument.MeterRegistry;

import io.distlock.core.LockClient;
import io.distlock.metrics.MicrometerLockListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for lock metrics, when Micrometer and a {@link MeterRegistry} are
 * present: the lock meters, and the gauges of the fencing guarantee's run-time checks
 * ({@code distlock.fencing.lead}, {@code distlock.redlock.clock.offset}).
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({ MeterRegistry.class, MicrometerLockListener.class })
@ConditionalOnBean({ MeterRegistry.class, io.distlock.LockTemplate.class })
public final class DistLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	MicrometerLockListener micrometerLockListener(MeterRegistry meterRegistry, ObjectProvider<LockClient> lockClient) {
		// The gauges of the fencing checks go with the lock meters.
		lockClient.ifUnique((client) -> FencingClockMeters.register(meterRegistry, client));
		return new MicrometerLockListener(meterRegistry);
	}

}
