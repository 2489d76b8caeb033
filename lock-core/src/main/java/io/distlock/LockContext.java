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

import java.util.ArrayList;
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
 *     long token = LockContext.require().fencingToken();
 *     ...
 * }
 * </pre>
 *
 * <p>
 * {@link LockTemplate#execute(LockRequest, LockCallback) LockTemplate.execute}, which the
 * annotation uses too, binds a handle while its code runs. A nested call re-enters a
 * bound lock, instead of asking Redis again, only when it is the same lock: the same key
 * in the same store (the same {@link io.distlock.store.LockClient} instance) under the
 * same key prefix, as {@link LockTemplate#findBoundLock(String)} finds it. A nested call
 * on a template of another store or prefix takes its own lock, which is then the
 * {@link #current() innermost} one. Handles from
 * {@link LockTemplate#tryAcquire(LockRequest) tryAcquire} are not bound, since their
 * owner decides where they are used and closed; code that holds such a handle for a
 * stretch of work on one thread, as the ShedLock and Spring Integration adapters do,
 * binds it with {@link #open(LockHandle)} for that stretch.
 */
public final class LockContext implements AutoCloseable {

	// The bound handles of each thread, innermost last; no list is left on a thread that
	// holds none, so that pooled threads keep nothing.
	private static final ThreadLocal<List<LockHandle>> bound = new ThreadLocal<>();

	private final LockHandle handle;

	private boolean closed;

	private LockContext(LockHandle handle) {
		this.handle = handle;
	}

	/**
	 * Bind the given held lock to the current thread until the returned scope is closed:
	 * it is then the {@link #current() innermost} lock, and a nested
	 * {@code LockTemplate.execute} or {@code @DistributedLocked} call for the same lock
	 * re-enters it. Close the scope on the same thread, before or after the release of
	 * the lock:
	 *
	 * <pre class="code">
	 * try (LockContext scope = LockContext.open(handle)) {
	 *     ...
	 * }
	 * </pre>
	 * @param handle the held lock
	 * @return the scope, which unbinds the lock when closed
	 */
	public static LockContext open(LockHandle handle) {
		Assert.notNull(handle, "'handle' must not be null");
		List<LockHandle> handles = bound.get();
		if (handles == null) {
			handles = new ArrayList<>(2);
			bound.set(handles);
		}
		handles.add(handle);
		return new LockContext(handle);
	}

	/**
	 * Unbind the lock of this scope from the current thread, wherever it is among the
	 * thread's bound locks; nothing happens if it is not bound to this thread, or if the
	 * scope was closed already. The lock itself is not released.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		List<LockHandle> handles = bound.get();
		if (handles == null) {
			return;
		}
		for (int i = handles.size() - 1; i >= 0; i--) {
			if (handles.get(i) == this.handle) {
				handles.remove(i);
				break;
			}
		}
		if (handles.isEmpty()) {
			bound.remove();
		}
	}

	/**
	 * Return the innermost lock held by the current thread through the annotation.
	 * @return the innermost lock, or empty outside any locked method
	 */
	public static Optional<LockHandle> current() {
		List<LockHandle> handles = bound.get();
		return (handles != null) ? Optional.of(handles.get(handles.size() - 1)) : Optional.empty();
	}

	/**
	 * Return the innermost lock held by the current thread through the annotation, or
	 * fail saying why there may be none.
	 * @return the innermost lock
	 * @throws IllegalStateException if the current thread holds no lock
	 */
	public static LockHandle require() {
		return current().orElseThrow(() -> new IllegalStateException("No distlock lock is held on this thread. "
				+ "Likely causes: the @DistributedLocked method was called from inside its own class "
				+ "(this.method(..) does not go through the proxy: call it through another bean, or weave the "
				+ "aspect with distlock.aop.mode=aspectj); the method is one a proxy cannot intercept (private, "
				+ "final or static, or the object is not a Spring bean); or this code runs on another thread than "
				+ "the locked method (an executor, a parallel stream, a reactive operator: pass the LockHandle "
				+ "along instead)"));
	}

	/**
	 * Return every lock the current thread holds through the annotation or
	 * {@code LockTemplate.execute}, outermost first: all keys of a multi-key lock among
	 * them.
	 * @return a snapshot of the held locks, empty outside any locked method
	 */
	public static List<LockHandle> held() {
		List<LockHandle> handles = bound.get();
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
		List<LockHandle> handles = bound.get();
		if (handles == null) {
			return null;
		}
		for (int i = handles.size() - 1; i >= 0; i--) {
			if (handles.get(i).key().equals(key)) {
				return handles.get(i);
			}
		}
		return null;
	}

}
