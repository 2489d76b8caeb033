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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.scheduling.TaskScheduler;

/**
 * Spring Integration's {@link RedisLockRegistry} on a Lettuce connection factory like
 * Spring Boot's, in either of its modes: pub/sub (waiters are woken by a release message,
 * as with distlock and Redisson) or spin (its default: a busy lock is tried again every
 * 100 ms, and a release publishes nothing).
 */
public final class SpringIntegrationContender implements LockContender {

	private final LettuceConnectionFactory connectionFactory;

	private final RedisLockRegistry registry;

	/**
	 * Create a registry on the given Redis.
	 * @param address the Redis
	 * @param leaseTime the registry's lease time ({@code expireAfter})
	 * @param lockType the registry's mode
	 * @param renewals the scheduler that renews held locks every third of the lease, or
	 * {@code null} for none (the default)
	 */
	public SpringIntegrationContender(RedisAddress address, Duration leaseTime,
			RedisLockRegistry.RedisLockType lockType, @Nullable TaskScheduler renewals) {
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(address.host(), address.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.registry = new RedisLockRegistry(this.connectionFactory, "si-lock", leaseTime);
		this.registry.setRedisLockType(lockType);
		if (renewals != null) {
			this.registry.setRenewalTaskScheduler(renewals);
		}
	}

	/**
	 * Return the lock registry.
	 * @return the registry
	 */
	public RedisLockRegistry registry() {
		return this.registry;
	}

	@Override
	public void withLock(String key, Runnable body) {
		Lock lock = this.registry.obtain(key);
		boolean acquired;
		try {
			acquired = lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS);
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
		this.registry.destroy();
		this.connectionFactory.destroy();
	}

}
