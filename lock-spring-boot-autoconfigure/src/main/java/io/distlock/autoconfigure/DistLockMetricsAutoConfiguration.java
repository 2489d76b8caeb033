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

import io.distlock.LockAdministration;
import io.distlock.LockTemplate;
import io.distlock.interceptor.LockOperationSource;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.LockObservationConvention;
import io.distlock.store.LockClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for lock metrics, when Micrometer and a {@link MeterRegistry} are
 * present: the gauges of the fencing guarantee's run-time checks
 * ({@code distlock.fencing.lead}, {@code distlock.redlock.clock.offset}), of the callers
 * waiting for a lock ({@code distlock.lock.waiting}) and of the lease renewer
 * ({@code distlock.lease.renewing}, {@code distlock.lease.backlog}). The counter
 * {@code distlock.lock.lost} and the gauge {@code distlock.lock.waiting} of every lock
 * name of the annotated methods exist from startup, at zero ({@link LockNameMeters}).
 *
 * <p>
 * The meters of the locks themselves ({@code distlock.lock}, {@code distlock.lock.active}
 * and {@code distlock.lock.lost}) come from the lock observations, which
 * {@link DistLockAutoConfiguration} records in the application's
 * {@code ObservationRegistry}, and Spring Boot's metrics auto-configuration turns into
 * meters: one vocabulary, named by the
 * {@link io.distlock.observation.DefaultLockObservationConvention}.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, LockTemplate.class })
public final class DistLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	FencingClockMeters fencingClockMeters(MeterRegistry meterRegistry, ObjectProvider<LockClient> lockClient) {
		return new FencingClockMeters(meterRegistry, lockClient.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LeaseRenewer.class)
	LeaseRenewerMeters leaseRenewerMeters(MeterRegistry meterRegistry, LeaseRenewer leaseRenewer) {
		return new LeaseRenewerMeters(meterRegistry, leaseRenewer);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockAdministration.class)
	WaitingLocksMeters waitingLocksMeters(MeterRegistry meterRegistry, LockAdministration locks) {
		return new WaitingLocksMeters(meterRegistry, locks);
	}

	@Bean
	@ConditionalOnMissingBean
	LockNameMeters lockNameMeters(MeterRegistry meterRegistry, ObjectProvider<LockOperationSource> lockOperationSources,
			ObjectProvider<WaitingLocksMeters> waitingLocksMeters,
			ObjectProvider<LockObservationConvention> lockObservationConvention) {
		// A convention of the application's own may tag the counter otherwise.
		return new LockNameMeters(meterRegistry, lockOperationSources, waitingLocksMeters,
				lockObservationConvention.getIfAvailable() == null);
	}

}
