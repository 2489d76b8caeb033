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

import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.distlock.engine.BoundLocks;

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
 * owner decides where they are used and closed.
 */
public final class LockContext {

	private LockContext() {
	}

	/**
	 * Return the innermost lock held by the current thread through the annotation.
	 * @return the innermost lock, or empty outside any locked method
	 */
	public static Optional<LockHandle> current() {
		List<LockHandle> handles = BoundLocks.held();
		return handles.isEmpty() ? Optional.empty() : Optional.of(handles.get(handles.size() - 1));
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
		return BoundLocks.held();
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
		List<LockHandle> handles = BoundLocks.held();
		for (int i = handles.size() - 1; i >= 0; i--) {
			if (handles.get(i).key().equals(key)) {
				return handles.get(i);
			}
		}
		return null;
	}

}
