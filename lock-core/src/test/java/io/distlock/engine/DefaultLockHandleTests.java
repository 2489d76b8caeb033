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

package io.distlock.engine;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockEvent;
import io.distlock.LockListener;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link DefaultLockHandle#whenLost()}.
 */
class DefaultLockHandleTests {

	private final AtomicInteger lostReports = new AtomicInteger();

	private final DefaultLockHandle handle = new DefaultLockHandle("k", "lock:k", "owner", 7, new ReleasingClient(),
			new LockListener() {

				@Override
				public void onLost(LockEvent.Lost event) {
					DefaultLockHandleTests.this.lostReports.incrementAndGet();
				}

			});

	@Test
	void whenLostCompletesWhenTheLockIsMarkedLost() {
		CompletableFuture<Void> lost = this.handle.whenLost().toCompletableFuture();
		assertThat(lost).isNotDone();
		this.handle.hold().markLost();
		assertThat(lost).isCompleted();
		assertThat(this.lostReports).hasValue(1);
	}

	@Test
	void whenLostNeverCompletesAfterANormalRelease() {
		CompletableFuture<Void> lost = this.handle.whenLost().toCompletableFuture();
		this.handle.close();
		assertThat(this.handle.hold().markLost()).isFalse();
		assertThat(lost).isNotDone();
		assertThat(this.handle.whenLost().toCompletableFuture()).isNotDone();
	}

	@Test
	void whenLostCompletesAlsoWhenAListenerFails() {
		DefaultLockHandle handle = new DefaultLockHandle("k", "lock:k", "owner", 7, new ReleasingClient(),
				new LockListener() {

					@Override
					public void onLost(LockEvent.Lost event) {
						throw new IllegalStateException("broken listener");
					}

				});
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> handle.hold().markLost());
		assertThat(handle.whenLost().toCompletableFuture()).isCompleted();
	}

	@Test
	void whenLostCannotBeCompletedByItsCaller() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> ((CompletableFuture<Void>) this.handle.whenLost()).complete(null));
		assertThat(this.handle.whenLost().toCompletableFuture()).isNotDone();
	}

	/**
	 * Releases every lock it is asked to.
	 */
	static class ReleasingClient implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return true;
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return true;
		}

	}

}
