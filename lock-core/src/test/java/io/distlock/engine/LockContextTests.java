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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.distlock.LockContext;
import io.distlock.LockHandle;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LockContext}.
 */
class LockContextTests {

	private final Handle outer = new Handle("orders:1", 1);

	private final Handle inner = new Handle("orders:2", 2);

	@AfterEach
	void unbindLeftovers() {
		while (LockContext.current().isPresent()) {
			BoundLocks.unbind(LockContext.current().get());
		}
	}

	@Test
	void currentIsEmptyOutsideAnyLock() {
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void requireOutsideAnyLockFailsNamingTheLikelyCauses() {
		assertThatIllegalStateException().isThrownBy(LockContext::require)
			.withMessageStartingWith("No distlock lock is held on this thread")
			.withMessageContaining("called from inside its own class")
			.withMessageContaining("distlock.aop.mode=aspectj")
			.withMessageContaining("private, final or static")
			.withMessageContaining("another thread");
	}

	@Test
	void requireReturnsTheInnermostLock() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		assertThat(LockContext.require()).isSameAs(this.inner);
	}

	@Test
	void findReturnsNullOutsideAnyLock() {
		assertThat(LockContext.find("orders:1")).isNull();
	}

	@Test
	void boundHandleIsCurrent() {
		BoundLocks.bind(this.outer);

		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void innermostHandleIsCurrent() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		assertThat(LockContext.current()).containsSame(this.inner);
	}

	@Test
	void unbindingInnermostMakesOuterCurrentAgain() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		BoundLocks.unbind(this.inner);

		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void unbindingLastHandleLeavesCurrentEmpty() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		BoundLocks.unbind(this.inner);
		BoundLocks.unbind(this.outer);

		assertThat(LockContext.current()).isEmpty();
		assertThat(LockContext.find("orders:1")).isNull();
	}

	@Test
	void sameHandleCanBeBoundAgainWhenReentered() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.outer);

		BoundLocks.unbind(this.outer);

		assertThat(LockContext.current()).containsSame(this.outer);
		BoundLocks.unbind(this.outer);
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void findReturnsHandleByKey() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		assertThat(LockContext.find("orders:1")).isSameAs(this.outer);
		assertThat(LockContext.find("orders:2")).isSameAs(this.inner);
	}

	@Test
	void givenNestedLocksThenHeldListsEveryOneOutermostFirst() {
		assertThat(LockContext.held()).isEmpty();
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		assertThat(LockContext.held()).containsExactly(this.outer, this.inner);

		BoundLocks.unbind(this.inner);
		assertThat(LockContext.held()).containsExactly(this.outer);
	}

	@Test
	void findReturnsNullForKeyNotHeld() {
		BoundLocks.bind(this.outer);

		assertThat(LockContext.find("orders:3")).isNull();
		assertThat(LockContext.find("ORDERS:1")).isNull();
	}

	@Test
	void unbindingHandleThatIsNotInnermostFails() {
		BoundLocks.bind(this.outer);
		BoundLocks.bind(this.inner);

		assertThatIllegalStateException().isThrownBy(() -> BoundLocks.unbind(this.outer))
			.withMessageContaining("is not the innermost lock bound to this thread");
		assertThat(LockContext.current()).containsSame(this.inner);
	}

	@Test
	void unbindingEqualButDifferentHandleFails() {
		BoundLocks.bind(this.outer);

		assertThatIllegalStateException().isThrownBy(() -> BoundLocks.unbind(new Handle("orders:1", 1)));
		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void unbindingWithNothingBoundFails() {
		assertThatIllegalStateException().isThrownBy(() -> BoundLocks.unbind(this.outer))
			.withMessageContaining("is not the innermost lock bound to this thread");
	}

	@Test
	void unbindingTwiceFails() {
		BoundLocks.bind(this.outer);
		BoundLocks.unbind(this.outer);

		assertThatIllegalStateException().isThrownBy(() -> BoundLocks.unbind(this.outer));
	}

	@Test
	void bindingNullFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> BoundLocks.bind(null))
			.withMessage("'handle' must not be null");
	}

	@Test
	void boundHandleIsNotVisibleToOtherThreads() {
		BoundLocks.bind(this.outer);

		Optional<LockHandle> elsewhere = CompletableFuture.supplyAsync(LockContext::current).join();

		assertThat(elsewhere).isEmpty();
		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void nothingIsLeftOnTheThreadAfterLastUnbind() {
		ThreadLocal<?> held = heldThreadLocal();
		BoundLocks.bind(this.outer);
		assertThat(held.get()).isNotNull();

		BoundLocks.unbind(this.outer);

		assertThat(held.get()).isNull();
	}

	@Test
	void pooledThreadIsCleanForItsNextTaskAfterLastUnbind() throws Exception {
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			pool.submit(() -> {
				BoundLocks.bind(this.outer);
				BoundLocks.bind(this.inner);
				BoundLocks.unbind(this.inner);
				BoundLocks.unbind(this.outer);
			}).get();

			Object leftover = pool.submit(() -> heldThreadLocal().get()).get();
			Optional<LockHandle> current = pool.submit(LockContext::current).get();

			assertThat(leftover).isNull();
			assertThat(current).isEmpty();
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static ThreadLocal<?> heldThreadLocal() {
		return (ThreadLocal<?>) ReflectionTestUtils.getField(BoundLocks.class, "held");
	}

	record Handle(String key, long fencingToken) implements LockHandle {

		@Override
		public boolean isHeld() {
			return true;
		}

		@Override
		public CompletionStage<Void> whenLost() {
			return new CompletableFuture<>();
		}

		@Override
		public boolean extend(Duration leaseTime, Duration minHold) {
			throw new UnsupportedOperationException();
		}

		@Override
		public void close() {
		}

	}

}
