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

package io.distlock.benchmarks.contenders;

import java.time.Duration;
import java.util.Optional;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;

/**
 * distlock through {@link LockTemplate}, as auto-configured by Spring Boot: one atomic
 * acquire script, an owner-checked release script, the lease renewed by the watchdog
 * while held (the default, or not at all with {@code withAutoRenew(false)}), and waiting
 * woken by release notifications.
 */
public final class DistlockTemplateContender implements LockContender {

	private static final Duration TTL = Duration.ofSeconds(LEASE_SECONDS);

	private static final Duration WAIT = Duration.ofSeconds(WAIT_SECONDS);

	private final DistlockApplication application;

	private final LockTemplate template;

	private final boolean autoRenew;

	/**
	 * Start the application on the given Redis.
	 * @param address the Redis
	 * @param autoRenew whether the watchdog renews the lease while the lock is held
	 */
	public DistlockTemplateContender(RedisAddress address, boolean autoRenew) {
		this.application = DistlockApplication.start(address);
		this.template = this.application.lockTemplate();
		this.autoRenew = autoRenew;
	}

	@Override
	public void withLock(String key, Runnable body) {
		// The published contender keeps the call a user writes most.
		Optional<LockHandle> acquired = this.autoRenew ? this.template.tryAcquire(key, TTL, WAIT)
				: this.template.tryAcquire(LockRequest.of(key, TTL, WAIT).withAutoRenew(false));
		try (LockHandle lock = acquired
			.orElseThrow(() -> new IllegalStateException("Lock '" + key + "' stayed busy"))) {
			body.run();
		}
	}

	@Override
	public void close() {
		this.application.close();
	}

}
