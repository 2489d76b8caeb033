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

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.distlock.lease.LeaseRenewer;

/**
 * The gauges of the application's lease renewer: {@value #RENEWING}, the leases it
 * renews, and {@value #BACKLOG}, those behind on renewal
 * ({@link LeaseRenewer#backlog()}), which stays above zero while the store is unreachable
 * or slower than the leases allow.
 */
final class LeaseRenewerMeters {

	static final String RENEWING = "distlock.lease.renewing";

	static final String BACKLOG = "distlock.lease.backlog";

	/**
	 * Register the gauges of the given renewer.
	 * @param registry the registry
	 * @param renewer the application's lease renewer
	 */
	LeaseRenewerMeters(MeterRegistry registry, LeaseRenewer renewer) {
		Gauge.builder(RENEWING, renewer, LeaseRenewer::size)
			.description("Leases the lease renewer renews")
			.register(registry);
		Gauge.builder(BACKLOG, renewer, LeaseRenewer::backlog)
			.description("Leases behind on renewal: the store failed or has not answered their renewal")
			.register(registry);
	}

}
