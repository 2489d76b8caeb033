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

import io.distlock.LockContext;
import io.distlock.test.assertion.LockAssertListener.Recording;

/**
 * An assertion about the lock of one key, started by
 * {@link LockAssert#assertThatLock(String)}.
 */
public final class LockAssertion {

	private final String key;

	private final LockAssertListener listener;

	LockAssertion(String key, LockAssertListener listener) {
		this.key = key;
		this.listener = listener;
	}

	/**
	 * Assert that the current thread holds the lock now.
	 * @return this assertion
	 * @throws AssertionError if it does not
	 */
	public LockAssertion isHeld() {
		LockAssert.assertLocked(this.key);
		return this;
	}

	/**
	 * Assert that the current thread does not hold the lock now.
	 * @return this assertion
	 * @throws AssertionError if it does
	 */
	public LockAssertion isNotHeld() {
		LockAssert.assertNotLocked(this.key);
		return this;
	}

	/**
	 * Run the given call on the current thread and assert that it took the lock and gave
	 * it back before returning, as a {@code @DistributedLocked} method or
	 * {@code LockTemplate.execute} does; a call made while the thread already holds the
	 * lock passes, since it runs under that lock. Exceptions of the call propagate and
	 * the assertion is not made.
	 * <p>
	 * The locks a call takes are seen through {@link LockAssert#listener()}, which must
	 * be registered with the template; locks taken on other threads (asynchronous
	 * methods) are not seen.
	 * @param call the call that should run under the lock
	 * @return this assertion
	 * @throws AssertionError if the call did not take the lock, or still held it when it
	 * returned
	 */
	public LockAssertion isHeldDuring(Runnable call) {
		if (LockContext.find(this.key) != null) {
			call.run();
			return this;
		}
		Recording recording = this.listener.start();
		try {
			call.run();
		}
		finally {
			this.listener.stop(recording);
		}
		if (!recording.acquired.contains(this.key)) {
			throw new AssertionError("Expected the call to run under the lock '" + this.key + "', but it took "
					+ LockAssert.describe(recording.acquired) + hint(recording));
		}
		if (!recording.released.contains(this.key)) {
			throw new AssertionError("Expected the call to give the lock '" + this.key
					+ "' back before returning, but it still holds it");
		}
		return this;
	}

	private static String hint(Recording recording) {
		// Taking no lock at all is also what an unregistered listener looks like.
		return recording.acquired.isEmpty() ? " (if it does lock, LockAssert.listener() is not registered with its "
				+ "template: a LockTemplate built by hand needs it in lockListeners of the LockSettings of its LockEngine)"
				: "";
	}

}
