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

package io.distlock.test.assertion;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.test.memory.InMemoryLockClient;
import io.distlock.waiting.LockWaiter;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LockAssert} and {@link LockAssertion}, on a template over the
 * in-memory store.
 */
class LockAssertTests {

	private final LockTemplate template = templateWith(LockAssert.listener());

	@Test
	void assertLockedPassesInsideExecuteOfThatKey() {
		assertThatCode(() -> execute("order:42", () -> {
			LockAssert.assertLocked();
			LockAssert.assertLocked("order:42");
		})).doesNotThrowAnyException();
	}

	@Test
	void assertLockedFailsOutsideAnyLock() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(LockAssert::assertLocked)
			.withMessageContaining("to hold a distributed lock, but it holds none");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> LockAssert.assertLocked("order:42"))
			.withMessageEndingWith("to hold the lock 'order:42', but it holds none");
	}

	@Test
	void assertLockedFailsUnderAnotherKeyAndNamesTheKeyHeld() {
		execute("order:41",
				() -> assertThatExceptionOfType(AssertionError.class)
					.isThrownBy(() -> LockAssert.assertLocked("order:42"))
					.withMessageEndingWith("to hold the lock 'order:42', but it holds only [order:41]"));
	}

	@Test
	void assertNotLockedFailsOnlyUnderThatKey() {
		assertThatCode(() -> LockAssert.assertNotLocked("order:42")).doesNotThrowAnyException();
		execute("order:42",
				() -> assertThatExceptionOfType(AssertionError.class)
					.isThrownBy(() -> LockAssert.assertNotLocked("order:42"))
					.withMessageEndingWith("not to hold the lock 'order:42', but it does"));
	}

	@Test
	void isHeldDuringPassesForACallThatRunsUnderTheLock() {
		assertThatCode(() -> LockAssert.assertThatLock("order:42").isHeldDuring(() -> execute("order:42", () -> {
		}))).doesNotThrowAnyException();
	}

	@Test
	void isHeldDuringFailsForACallThatTakesNoLock() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssert.assertThatLock("order:42").isHeldDuring(() -> {
			}))
			.withMessageStartingWith("Expected the call to run under the lock 'order:42', but it took none (");
	}

	@Test
	void isHeldDuringFailsForACallUnderAnotherKeyAndNamesIt() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssert.assertThatLock("order:42").isHeldDuring(() -> execute("order:41", () -> {
			})))
			.withMessage("Expected the call to run under the lock 'order:42', but it took only [order:41]");
	}

	@Test
	void isHeldDuringFailsForACallThatKeepsTheLockAfterReturning() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssert.assertThatLock("order:42")
				.isHeldDuring(() -> this.template.tryAcquire("order:42", Duration.ofSeconds(10), Duration.ZERO)))
			.withMessage("Expected the call to give the lock 'order:42' back before returning, but it still holds it");
	}

	@Test
	void isHeldDuringFailsWhenTheTemplateDoesNotReportToTheListenerAndSaysHowToRegisterIt() {
		LockTemplate unobserved = templateWith(null);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssert.assertThatLock("order:42")
				.isHeldDuring(() -> unobserved
					.execute(LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO), () -> null)))
			.withMessageContaining("but it took none")
			.withMessageContaining("needs it in lockListeners of the LockSettings of its LockEngine");
	}

	private void execute(String key, Runnable action) {
		this.template.execute(LockRequest.of(key, Duration.ofSeconds(10), Duration.ZERO), () -> {
			action.run();
			return null;
		});
	}

	private static LockTemplate templateWith(io.distlock.@org.jspecify.annotations.Nullable LockListener listener) {
		LockSettings settings = (listener != null) ? LockSettings.builder().lockListeners(List.of(listener)).build()
				: LockSettings.defaults();
		return new LockTemplate(
				new LockEngine(new InMemoryLockClient(), new LockWaiter(Duration.ofMillis(500)), settings));
	}

}
