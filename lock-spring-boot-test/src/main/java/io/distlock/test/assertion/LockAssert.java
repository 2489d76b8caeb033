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

import java.util.List;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockListener;

/**
 * Assertions that code runs under a distributed lock, in the spirit of ShedLock's
 * {@code LockAssert}, built on {@link LockContext}.
 *
 * <p>
 * {@link #assertLocked(String)} checks the current thread, so it is called from code that
 * runs inside the locked call: a test double, a callback or a test's bean that the locked
 * method calls.
 *
 * <pre class="code">
 * given(repository.save(any())).willAnswer((invocation) -&gt; {
 *     LockAssert.assertLocked("order:42");
 *     return invocation.getArgument(0);
 * });
 * </pre>
 *
 * {@link #assertThatLock(String)} checks a whole call from the outside:
 *
 * <pre class="code">
 * LockAssert.assertThatLock("order:42").isHeldDuring(() -&gt; orderService.pay(42));
 * </pre>
 *
 * <p>
 * Unlike ShedLock's, this class is for tests only (its artifact has test scope), so it
 * has no switch that makes every assertion pass: production code never calls it, and a
 * unit test that calls a method without its lock simply does not assert the lock. Keys
 * are lock keys as {@link LockHandle#key()} returns them, without the key prefix.
 *
 * @see LockContext
 */
public final class LockAssert {

	private static final LockAssertListener listener = new LockAssertListener();

	private LockAssert() {
	}

	/**
	 * Assert that the current thread holds a lock, whatever its key, through
	 * {@code @DistributedLocked} or {@code LockTemplate.execute}.
	 * @throws AssertionError if the thread holds no lock
	 */
	public static void assertLocked() {
		if (LockContext.held().isEmpty()) {
			throw new AssertionError("Expected the current thread (" + Thread.currentThread().getName()
					+ ") to hold a distributed lock, but it holds none");
		}
	}

	/**
	 * Assert that the current thread holds the lock of the given key, through
	 * {@code @DistributedLocked} or {@code LockTemplate.execute}.
	 * @param key the lock key, without the key prefix
	 * @throws AssertionError if the thread does not hold that lock
	 */
	public static void assertLocked(String key) {
		if (LockContext.find(key) == null) {
			throw new AssertionError("Expected the current thread (" + Thread.currentThread().getName()
					+ ") to hold the lock '" + key + "', but it holds " + describe(heldKeys()));
		}
	}

	/**
	 * Assert that the current thread does not hold the lock of the given key, for example
	 * after the locked call returned.
	 * @param key the lock key, without the key prefix
	 * @throws AssertionError if the thread holds that lock
	 */
	public static void assertNotLocked(String key) {
		if (LockContext.find(key) != null) {
			throw new AssertionError("Expected the current thread (" + Thread.currentThread().getName()
					+ ") not to hold the lock '" + key + "', but it does");
		}
	}

	/**
	 * Start an assertion about the lock of the given key.
	 * @param key the lock key, without the key prefix
	 * @return the assertion
	 */
	public static LockAssertion assertThatLock(String key) {
		return new LockAssertion(key, listener);
	}

	/**
	 * Return the listener that lets {@link LockAssertion#isHeldDuring} see the locks a
	 * call takes. A {@code @SpringBootTest} with {@code lock-spring-boot-test} on its
	 * class path registers it with the auto-configured {@code LockTemplate}; a template
	 * built by hand needs it in {@code setLockListeners} of its {@code LockSettings}.
	 * @return the listener
	 */
	public static LockListener listener() {
		return listener;
	}

	static List<String> heldKeys() {
		return LockContext.held().stream().map(LockHandle::key).toList();
	}

	static String describe(List<String> keys) {
		return keys.isEmpty() ? "none" : "only " + keys;
	}

}
