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

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;

import io.distlock.LockMode;
import io.distlock.store.LockClient;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DefaultMultiLockHandle} and for which nested requests a held lock
 * covers ({@link LockKind#covers}).
 */
class DefaultMultiLockHandleTests {

	private final List<String> closed = new ArrayList<>();

	@Test
	void givenTakenAndReenteredLocksWhenClosedThenOnlyTheTakenAreReleasedInReverseOrderOnce() {
		Handle a = new Handle("a", 1, null);
		Handle b = new Handle("b", 2, null);
		Handle c = new Handle("c", 3, null);
		DefaultMultiLockHandle locks = new DefaultMultiLockHandle(List.of(a, b, c), Set.of(a, c));

		locks.close();
		locks.close();

		assertThat(this.closed).containsExactly("c", "a");
		assertThat(locks.keys()).containsExactly("a", "b", "c");
		assertThat(locks.fencingToken("b")).isEqualTo(2);
	}

	@Test
	void givenReleasesThatFailWhenClosedThenEveryOneIsTriedAndTheFailuresAreReportedTogether() {
		Handle a = new Handle("a", 1, new LockBackendException("a", "down", null));
		Handle b = new Handle("b", 2, null);
		Handle c = new Handle("c", 3, new LockBackendException("c", "down too", null));
		DefaultMultiLockHandle locks = new DefaultMultiLockHandle(List.of(a, b, c), Set.of(a, b, c));

		assertThatExceptionOfType(LockBackendException.class).isThrownBy(locks::close)
			.withMessage("down too")
			.satisfies(
					(ex) -> assertThat(ex.getSuppressed()).extracting(Throwable::getMessage).containsExactly("down"));
		assertThat(this.closed).containsExactly("c", "b", "a");
	}

	@Test
	void givenAKeyThatIsNotHeldThenItsFencingTokenIsRefused() {
		DefaultMultiLockHandle locks = new DefaultMultiLockHandle(List.of(new Handle("a", 1, null)), Set.of());

		assertThatIllegalArgumentException().isThrownBy(() -> locks.fencingToken("z"))
			.withMessage("Key 'z' is not one of the held keys [a]");
	}

	@Test
	void givenOneLockLostThenTheHandleIsLost() {
		Handle a = new Handle("a", 1, null);
		Handle b = new Handle("b", 2, null);
		DefaultMultiLockHandle locks = new DefaultMultiLockHandle(List.of(a, b), Set.of(a, b));

		assertThat(locks.whenLost().toCompletableFuture()).isNotDone();
		b.lost.complete(null);

		assertThat(locks.whenLost().toCompletableFuture()).isDone();
	}

	@Test
	void givenAHeldModeThenItCoversWhatItHoldsAndNoMore() {
		LockRequest exclusive = LockRequest.of("k", Duration.ofSeconds(1), Duration.ZERO);
		LockRequest read = exclusive.withMode(LockMode.READ);
		LockRequest write = exclusive.withMode(LockMode.WRITE);
		LockRequest permits = exclusive.withPermits(3);

		assertThat(kind(write).covers(read)).isTrue();
		assertThat(kind(exclusive).covers(write)).isTrue();
		assertThat(kind(write).covers(exclusive)).isTrue();
		assertThat(kind(read).covers(read)).isTrue();
		assertThat(kind(read).covers(write)).isFalse();
		assertThat(kind(read).covers(exclusive)).isFalse();
		assertThat(kind(permits).covers(permits)).isTrue();
		assertThat(kind(permits).covers(exclusive)).isFalse();
		assertThat(kind(exclusive).covers(permits)).isFalse();
		assertThat(kind(permits).covers(exclusive.withPermits(4))).isFalse();
	}

	private static LockKind kind(LockRequest request) {
		// Only the store's capabilities matter here, none of its calls.
		LockClient store = (LockClient) Proxy.newProxyInstance(DefaultMultiLockHandleTests.class.getClassLoader(),
				new Class<?>[] { ReadWriteLockClient.class, PermitLockClient.class }, (proxy, method, args) -> {
					throw new UnsupportedOperationException(method.getName());
				});
		return LockKind.of(request, store);
	}

	private final class Handle implements LockHandle {

		private final String key;

		private final long fencingToken;

		private final RuntimeException releaseFailure;

		private final CompletableFuture<Void> lost = new CompletableFuture<>();

		Handle(String key, long fencingToken, RuntimeException releaseFailure) {
			this.key = key;
			this.fencingToken = fencingToken;
			this.releaseFailure = releaseFailure;
		}

		@Override
		public String key() {
			return this.key;
		}

		@Override
		public long fencingToken() {
			return this.fencingToken;
		}

		@Override
		public boolean isHeld() {
			return true;
		}

		@Override
		public boolean extend(Duration leaseTime, Duration minHold) {
			throw new UnsupportedOperationException();
		}

		@Override
		public CompletionStage<Void> whenLost() {
			return this.lost;
		}

		@Override
		public void close() {
			DefaultMultiLockHandleTests.this.closed.add(this.key);
			if (this.releaseFailure != null) {
				throw this.releaseFailure;
			}
		}

	}

}
