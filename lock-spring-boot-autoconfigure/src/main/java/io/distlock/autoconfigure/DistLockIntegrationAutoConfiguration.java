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

import io.distlock.LockTemplate;
import io.distlock.integration.DistlockLockRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of distlock under Spring Integration: when Spring Integration 7 is
 * on the class path and the application defines no {@code LockRegistry} of its own, a
 * {@link DistlockLockRegistry} on the application's {@link LockTemplate} is its lock
 * registry, its locks leased for {@code distlock.default-ttl} and renewed while held.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnClass(name = { "org.springframework.integration.support.locks.DistributedLock",
		"io.distlock.integration.DistlockLockRegistry" })
@ConditionalOnBean(LockTemplate.class)
public final class DistLockIntegrationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(type = "org.springframework.integration.support.locks.LockRegistry")
	DistlockLockRegistry distlockLockRegistry(LockTemplate lockTemplate, DistLockProperties properties) {
		return new DistlockLockRegistry(lockTemplate, properties.getDefaultTtl());
	}

}
