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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the failures of {@link LockTemplate#executeAsync(LockRequest, LockCallback)
 * LockTemplate.executeAsync} that need no Redis: a lock store failure is answered with a
 * failed stage, a misuse is thrown.
 */
class LockTemplateAsyncTests {

	@Test
	void backendFailureFailsTheStageWithoutRunningTheAction() {
		LockTemplate template = new LockTemplate(new UnreachableClient());
		AtomicBoolean ran = new AtomicBoolean();
		CompletableFuture<String> result = template
			.executeAsync(LockRequest.of("k", Duration.ofSeconds(10), Duration.ZERO), (lock) -> {
				ran.set(true);
				return CompletableFuture.completedFuture("ran");
			});
		assertThatExceptionOfType(CompletionException.class).isThrownBy(result::join)
			.havingCause()
			.isInstanceOf(LockBackendException.class)
			.satisfies((ex) -> assertThat(((LockBackendException) ex).getKey()).isEqualTo("k"));
		assertThat(ran).isFalse();
	}

	@Test
	void unsupportedFairRequestIsThrownAsAMisuseAsByExecute() {
		LockTemplate template = new LockTemplate(new UnreachableClient());
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(
				() -> template.executeAsync(LockRequest.of("k", Duration.ofSeconds(10), Duration.ZERO).withFair(true),
						(lock) -> CompletableFuture.completedFuture("ran")))
			.withMessageContaining("was requested fair");
	}

	/**
	 * A store that Redis never answers for.
	 */
	static class UnreachableClient implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			throw new LockBackendException(key, "Redis is unreachable", null);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			throw new LockBackendException(key, "Redis is unreachable", null);
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new LockBackendException(key, "Redis is unreachable", null);
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			throw new LockBackendException(key, "Redis is unreachable", null);
		}

	}

}
