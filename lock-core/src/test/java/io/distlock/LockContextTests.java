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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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

	private final List<LockContext> scopes = new ArrayList<>();

	private final List<LockHandle> bound = new ArrayList<>();

	@AfterEach
	void unbindLeftovers() {
		for (int i = this.scopes.size() - 1; i >= 0; i--) {
			this.scopes.get(i).close();
		}
	}

	private LockContext bind(LockHandle handle) {
		LockContext scope = LockContext.open(handle);
		this.scopes.add(scope);
		this.bound.add(handle);
		return scope;
	}

	// Closes the scope opened last for the handle.
	private void unbind(LockHandle handle) {
		for (int i = this.bound.size() - 1; i >= 0; i--) {
			if (this.bound.get(i) == handle) {
				this.bound.remove(i);
				this.scopes.remove(i).close();
				return;
			}
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
		bind(this.outer);
		bind(this.inner);

		assertThat(LockContext.require()).isSameAs(this.inner);
	}

	@Test
	void findReturnsNullOutsideAnyLock() {
		assertThat(LockContext.find("orders:1")).isNull();
	}

	@Test
	void boundHandleIsCurrent() {
		bind(this.outer);

		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void innermostHandleIsCurrent() {
		bind(this.outer);
		bind(this.inner);

		assertThat(LockContext.current()).containsSame(this.inner);
	}

	@Test
	void unbindingInnermostMakesOuterCurrentAgain() {
		bind(this.outer);
		bind(this.inner);

		unbind(this.inner);

		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void unbindingLastHandleLeavesCurrentEmpty() {
		bind(this.outer);
		bind(this.inner);

		unbind(this.inner);
		unbind(this.outer);

		assertThat(LockContext.current()).isEmpty();
		assertThat(LockContext.find("orders:1")).isNull();
	}

	@Test
	void sameHandleCanBeBoundAgainWhenReentered() {
		bind(this.outer);
		bind(this.outer);

		unbind(this.outer);

		assertThat(LockContext.current()).containsSame(this.outer);
		unbind(this.outer);
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void findReturnsHandleByKey() {
		bind(this.outer);
		bind(this.inner);

		assertThat(LockContext.find("orders:1")).isSameAs(this.outer);
		assertThat(LockContext.find("orders:2")).isSameAs(this.inner);
	}

	@Test
	void givenNestedLocksThenHeldListsEveryOneOutermostFirst() {
		assertThat(LockContext.held()).isEmpty();
		bind(this.outer);
		bind(this.inner);

		assertThat(LockContext.held()).containsExactly(this.outer, this.inner);

		unbind(this.inner);
		assertThat(LockContext.held()).containsExactly(this.outer);
	}

	@Test
	void findReturnsNullForKeyNotHeld() {
		bind(this.outer);

		assertThat(LockContext.find("orders:3")).isNull();
		assertThat(LockContext.find("ORDERS:1")).isNull();
	}

	@Test
	void closingAScopeThatIsNotInnermostUnbindsOnlyItsLock() {
		LockContext outerScope = bind(this.outer);
		bind(this.inner);

		outerScope.close();

		assertThat(LockContext.held()).containsExactly(this.inner);
	}

	@Test
	void closingAScopeTwiceUnbindsItsLockOnce() {
		bind(this.outer);
		LockContext reentered = bind(this.outer);

		reentered.close();
		reentered.close();

		assertThat(LockContext.held()).containsExactly(this.outer);
	}

	@Test
	void closingAScopeOnAnotherThreadLeavesTheOpeningThreadsLocks() throws Exception {
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			LockContext scope = pool.submit(() -> LockContext.open(this.outer)).get();

			CompletableFuture.runAsync(scope::close).join();

			assertThat(pool.submit(LockContext::current).get()).containsSame(this.outer);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void bindingNullFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockContext.open(null))
			.withMessage("'handle' must not be null");
	}

	@Test
	void boundHandleIsNotVisibleToOtherThreads() {
		bind(this.outer);

		Optional<LockHandle> elsewhere = CompletableFuture.supplyAsync(LockContext::current).join();

		assertThat(elsewhere).isEmpty();
		assertThat(LockContext.current()).containsSame(this.outer);
	}

	@Test
	void nothingIsLeftOnTheThreadAfterLastUnbind() {
		ThreadLocal<?> held = heldThreadLocal();
		bind(this.outer);
		assertThat(held.get()).isNotNull();

		unbind(this.outer);

		assertThat(held.get()).isNull();
	}

	@Test
	void pooledThreadIsCleanForItsNextTaskAfterLastUnbind() throws Exception {
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			pool.submit(() -> {
				LockContext outerScope = LockContext.open(this.outer);
				LockContext innerScope = LockContext.open(this.inner);
				innerScope.close();
				outerScope.close();
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
		return (ThreadLocal<?>) ReflectionTestUtils.getField(LockContext.class, "bound");
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
