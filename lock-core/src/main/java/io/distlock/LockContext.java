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
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import io.distlock.core.LockClient;
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
 * annotation uses too, binds a handle while its code runs. A nested call re-enters a
 * bound lock, instead of asking Redis again, only when it is the same lock: the same key
 * in the same store (the same {@link io.distlock.core.LockClient} instance) under the
 * same key prefix, as {@link LockTemplate#findBoundLock(String)} finds it. A nested call
 * on a template of another store or prefix takes its own lock, which is then the
 * {@link #current() innermost} one. Handles from
 * {@link LockTemplate#tryAcquire(LockRequest) tryAcquire} are not bound, since their
 * owner decides where they are used and closed.
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
	 * Return the innermost lock on the given key held by the current thread through the
	 * annotation or {@code LockTemplate.execute}, whatever its store and key prefix. This
	 * is not the lock a nested call re-enters: two templates may hold locks of the same
	 * key in different stores or under different prefixes; use
	 * {@link LockTemplate#findBoundLock(String)} for the lock of one template.
	 * @param key the lock key, as {@link LockHandle#key()} returns it
	 * @return the handle, or {@code null} if the thread holds no lock of that key
	 */
	public static @Nullable LockHandle find(String key) {
		Deque<LockHandle> handles = held.get();
		if (handles != null) {
			Iterator<LockHandle> innermostFirst = handles.descendingIterator();
			while (innermostFirst.hasNext()) {
				LockHandle handle = innermostFirst.next();
				if (handle.key().equals(key)) {
					return handle;
				}
			}
		}
		return null;
	}

	/**
	 * Return the innermost lock held by the current thread on the given resource of the
	 * given store: the lock a nested call on that store and resource re-enters.
	 * @param store the lock store, compared by identity
	 * @param resource the key in the store, with its prefix
	 * @return the handle, or {@code null} if the thread holds no such lock
	 */
	static @Nullable DefaultLockHandle find(LockClient store, String resource) {
		Deque<LockHandle> handles = held.get();
		if (handles != null) {
			Iterator<LockHandle> innermostFirst = handles.descendingIterator();
			while (innermostFirst.hasNext()) {
				if (innermostFirst.next() instanceof DefaultLockHandle handle && handle.isLockOf(store, resource)) {
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
