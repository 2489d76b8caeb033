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

package io.distlock;

import java.time.Duration;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for the key prefix of {@link LockSettings}.
 */
class LockTemplateKeyPrefixTests {

	private final LockTemplate template = new LockTemplate(new UnusedLockClient());

	@ParameterizedTest
	@ValueSource(strings = { "", "lock:", "{tenant}:", "}{", "ключ:" })
	void prefixWithoutControlCharactersIsAccepted(String prefix) {
		assertThatNoException().isThrownBy(() -> LockSettings.builder().keyPrefix(prefix));
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock\n", "\u0000", "lock:\u001f", "\u0085" })
	void prefixWithAControlCharacterIsRejected(String prefix) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockSettings.builder().keyPrefix(prefix))
			.withMessageStartingWith("'keyPrefix' must not contain control characters but was '");
	}

	@Test
	void nullPrefixIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockSettings.builder().keyPrefix(null))
			.withMessage("'keyPrefix' must not be null");
	}

	/**
	 * Setting a prefix talks to no store.
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
