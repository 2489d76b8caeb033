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

import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} with its default configuration, either with an explicit lease
 * time or with its watchdog renewing the lease while held.
 */
public final class RedissonContender implements LockContender {

	private final RedissonClient redisson;

	private final boolean watchdog;

	/**
	 * Create a Redisson client on the given Redis.
	 * @param address the Redis
	 * @param watchdog whether locks are taken without a lease time, so that Redisson's
	 * watchdog renews them
	 * @param watchdogTimeout the watchdog's lease time in milliseconds, or {@code null}
	 * for Redisson's default (30 s)
	 */
	public RedissonContender(RedisAddress address, boolean watchdog, @Nullable Long watchdogTimeout) {
		Config config = new Config();
		config.useSingleServer().setAddress(address.url());
		if (watchdogTimeout != null) {
			config.setLockWatchdogTimeout(watchdogTimeout);
		}
		this.redisson = Redisson.create(config);
		this.watchdog = watchdog;
	}

	/**
	 * Return the Redisson client.
	 * @return the client
	 */
	public RedissonClient redisson() {
		return this.redisson;
	}

	@Override
	public void withLock(String key, Runnable body) {
		RLock lock = this.redisson.getLock(key);
		boolean acquired;
		try {
			acquired = this.watchdog ? lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)
					: lock.tryLock(WAIT_SECONDS, LEASE_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for lock '" + key + "'", ex);
		}
		if (!acquired) {
			throw new IllegalStateException("Lock '" + key + "' stayed busy");
		}
		try {
			body.run();
		}
		finally {
			lock.unlock();
		}
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
