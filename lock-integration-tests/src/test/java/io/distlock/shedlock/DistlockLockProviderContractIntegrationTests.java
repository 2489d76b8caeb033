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

package io.distlock.shedlock;

import java.time.Duration;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockTemplate;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ShedLock's own published contract suites for an extensible lock provider, unchanged,
 * run on {@link DistlockLockProvider} against a real redis-server: locking, lock at most
 * and at least, extension, and ShedLock's fuzz test of concurrent updates.
 */
class DistlockLockProviderContractIntegrationTests extends AbstractExtensibleLockProviderIntegrationTest {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack stack;

	private DistlockLockProvider provider;

	@BeforeEach
	void createProvider() {
		this.stack = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.provider = new DistlockLockProvider(this.stack.template());
	}

	@AfterEach
	void closeStack() {
		this.stack.close();
	}

	@Override
	protected ExtensibleLockProvider getLockProvider() {
		return this.provider;
	}

	@Override
	protected void assertUnlocked(String lockName) {
		assertThat(template().getEngine().inspect(lockName).held()).as("lock '%s' held", lockName).isFalse();
	}

	@Override
	protected void assertLocked(String lockName) {
		assertThat(template().getEngine().inspect(lockName).held()).as("lock '%s' held", lockName).isTrue();
	}

	private LockTemplate template() {
		return this.stack.template();
	}

}
