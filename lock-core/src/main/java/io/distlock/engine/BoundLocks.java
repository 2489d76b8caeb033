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

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockCallback;
import io.distlock.LockHandle;

import org.springframework.util.Assert;

/**
 * The locks bound to the current thread while code runs under them, innermost last: what
 * {@code LockContext} reads and what a nested call re-enters.
 *
 * <p>
 * For the front doors of distlock only: applications read the bound locks through
 * {@code io.distlock.LockContext}.
 */
public final class BoundLocks {

	private static final ThreadLocal<Deque<LockHandle>> held = new ThreadLocal<>();

	private BoundLocks() {
	}

	/**
	 * Return the locks bound to the current thread, outermost first.
	 * @return a snapshot, empty when none is bound
	 */
	public static List<LockHandle> held() {
		Deque<LockHandle> handles = held.get();
		return (handles != null) ? List.copyOf(handles) : List.of();
	}

	/**
	 * Return the innermost lock held by the current thread on the given resource of the
	 * given store: the lock a nested call on that store and resource re-enters.
	 * @param store the lock store, compared by identity
	 * @param resource the key in the store, with its prefix
	 * @return the handle, or {@code null} if the thread holds no such lock
	 */
	static @Nullable DefaultLockHandle find(Object store, String resource) {
		Deque<LockHandle> handles = held.get();
		if (handles != null) {
			for (var innermostFirst = handles.descendingIterator(); innermostFirst.hasNext();) {
				if (innermostFirst.next() instanceof DefaultLockHandle handle && handle.isLockOf(store, resource)) {
					return handle;
				}
			}
		}
		return null;
	}

	/**
	 * Bind a lock to the current thread as its innermost one, until
	 * {@link #unbindHeld(LockHandle)}: for a front door whose lock is held by a thread
	 * between two calls (ShedLock's {@code lock} and {@code unlock}, a
	 * {@code java.util.concurrent.locks.Lock}), rather than around a callback.
	 * @param handle the lock the current thread holds
	 */
	public static void bindHeld(LockHandle handle) {
		bind(handle);
	}

	/**
	 * Unbind a lock bound by {@link #bindHeld(LockHandle)} from the current thread,
	 * wherever it is among the thread's locks: such locks may be released in any order.
	 * @param handle the lock
	 * @return {@code true} if it was bound to the current thread
	 */
	public static boolean unbindHeld(LockHandle handle) {
		Deque<LockHandle> handles = held.get();
		if (handles == null) {
			return false;
		}
		boolean removed = false;
		for (var innermostFirst = handles.descendingIterator(); innermostFirst.hasNext();) {
			if (innermostFirst.next() == handle) {
				innermostFirst.remove();
				removed = true;
				break;
			}
		}
		if (handles.isEmpty()) {
			held.remove();
		}
		return removed;
	}

	/**
	 * Check that the current thread may re-enter a lock it holds, for a front door that
	 * counts its own re-entries rather than asking distlock again (a
	 * {@code java.util.concurrent.locks.Lock}): the lock is neither known lost nor
	 * released, and its lease has not run out by the renewer's clock. The front door then
	 * keeps the outer handle, and takes no new lock.
	 * @param handle the lock of the outer hold
	 * @param nested what the refused re-entry would have run, for the message
	 * @throws LockAcquisitionException if the lock cannot be re-entered
	 */
	public static void assertReenterable(LockHandle handle, String nested) {
		Assert.notNull(handle, "'handle' must not be null");
		if (handle instanceof DefaultLockHandle held) {
			Reentry.assertReenterable(held.hold(), held.key(), "hold", nested);
		}
	}

	/**
	 * Run the callback with the handle bound to the current thread.
	 */
	static <T extends @Nullable Object, E extends Throwable> T runBound(LockHandle handle, LockCallback<T, E> callback)
			throws E {
		bind(handle);
		try {
			return callback.doWithLock(handle);
		}
		finally {
			unbind(handle);
		}
	}

	/**
	 * Bind a lock to the current thread as its innermost one.
	 */
	static void bind(LockHandle handle) {
		Assert.notNull(handle, "'handle' must not be null");
		Deque<LockHandle> handles = held.get();
		if (handles == null) {
			handles = new ArrayDeque<>(2);
			held.set(handles);
		}
		handles.addLast(handle);
	}

	/**
	 * Unbind the innermost lock of the current thread, which must be the given one.
	 */
	static void unbind(LockHandle handle) {
		Deque<LockHandle> handles = held.get();
		Assert.state(handles != null && handles.peekLast() == handle,
				() -> "Lock " + handle + " is not the innermost lock bound to this thread");
		handles.removeLast();
		if (handles.isEmpty()) {
			// Leave nothing behind on pooled threads.
			held.remove();
		}
	}

}
