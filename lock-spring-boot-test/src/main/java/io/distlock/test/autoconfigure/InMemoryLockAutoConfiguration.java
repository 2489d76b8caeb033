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

package io.distlock.test.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.store.LockClient;
import io.distlock.test.memory.InMemoryLockClient;
import io.distlock.waiting.LockWaiter;

/**
 * Auto-configuration of the in-memory lock store, imported only by
 * {@link AutoConfigureInMemoryLocks @AutoConfigureInMemoryLocks}: it runs before
 * {@link DistLockAutoConfiguration}, whose Redis {@code LockClient} then backs off, and
 * wires the store's release wake-ups to the template's {@link LockWaiter}, in place of
 * the Redis release notifier, which it leaves out.
 *
 * @see AutoConfigureInMemoryLocks
 */
@AutoConfiguration(before = DistLockAutoConfiguration.class)
public final class InMemoryLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockClient.class)
	InMemoryLockClient inMemoryLockClient(ObjectProvider<LockWaiter> lockWaiter) {
		InMemoryLockClient client = new InMemoryLockClient();
		client.setLockWaiter(lockWaiter.getIfAvailable());
		return client;
	}

	@Bean
	static RedisReleaseNotifierRemover distLockRedisReleaseNotifierRemover() {
		return new RedisReleaseNotifierRemover();
	}

}
