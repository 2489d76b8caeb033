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

package io.distlock.integration;

import java.time.Duration;

import io.distlock.LockTemplate;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that a {@link DistlockLockRegistry}, whose locks are renewed while held, refuses
 * a ttl that renewal cannot keep.
 */
class DistlockLockRegistryTtlTests {

	private final LockTemplate template = new LockTemplate(new UnusedLockClient());

	@Test
	void ttlBelowTheRenewalMinimumIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DistlockLockRegistry(this.template, Duration.ofMillis(10)))
			.withMessage("'ttl' must be between 500ms (the shortest lease that renewal can keep) and 365 days but "
					+ "was PT0.01S");
	}

	@Test
	void ttlOfTheRenewalMinimumIsAccepted() {
		assertThat(new DistlockLockRegistry(this.template, Duration.ofMillis(500)))
			.hasToString("DistlockLockRegistry[registryKey='', ttl=PT0.5S]");
	}

	/**
	 * Creating a registry talks to no store.
	 */
	static class UnusedLockClient implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean release(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

	}

}
