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

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The locks the current thread holds through {@code @DistributedLocked} methods,
 * innermost last. A locked method reads its fencing token here:
 *
 * <pre class="code">
 * &#64;DistributedLocked(key = "#orderId")
 * public void pay(long orderId) {
 *     long token = LockContext.current().orElseThrow().fencingToken();
 *     ...
 * }
 * </pre>
 *
 * <p>
 * {@link LockTemplate#execute(LockRequest, LockCallback) LockTemplate.execute}, which the
 * annotation uses too, binds a handle while its code runs; a nested call locking the same
 * key on the same thread re-enters the handle already bound instead of asking Redis
 * again. Handles from {@link LockTemplate#tryAcquire(LockRequest) tryAcquire} are not
 * bound, since their owner decides where they are used and closed.
 */
public final class LockContext {

	private static final ThreadLocal<Deque<LockHandle>> held = new ThreadLocal<>();

	private LockContext() {
	}

	/**
	 * Return the innermost lock held by the current thread through the annotation.
	 * @return the innermost lock, or empty outside any locked method
	 */
	public static Optional<LockHandle> current() {
		Deque<LockHandle> handles = held.get();
		return (handles != null) ? Optional.ofNullable(handles.peekLast()) : Optional.empty();
	}

	/**
	 * Return every lock the current thread holds through the annotation or
	 * {@code LockTemplate.execute}, outermost first: all keys of a multi-key lock among
	 * them.
	 * @return a snapshot of the held locks, empty outside any locked method
	 */
	public static List<LockHandle> held() {
		Deque<LockHandle> handles = held.get();
		return (handles != null) ? List.copyOf(handles) : List.of();
	}

	/**
	 * Return the lock on the given key held by the current thread through the annotation.
	 * @param key the lock key, as {@link LockHandle#key()} returns it
	 * @return the handle, or {@code null} if the thread holds no such lock
	 */
	public static @Nullable LockHandle find(String key) {
		Deque<LockHandle> handles = held.get();
		if (handles != null) {
			for (LockHandle handle : handles) {
				if (handle.key().equals(key)) {
					return handle;
				}
			}
		}
		return null;
	}

	/**
	 * Bind a lock to the current thread as its innermost one.
	 * @param handle the lock the thread now holds
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
	 * @param handle the lock bound last
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
