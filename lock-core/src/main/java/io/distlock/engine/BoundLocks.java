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

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockCallback;
import io.distlock.LockContext;
import io.distlock.LockHandle;

/**
 * The engine's side of the locks bound to a thread, which {@link LockContext} keeps: the
 * bound lock a nested call re-enters, and code run with its lock bound.
 */
final class BoundLocks {

	private BoundLocks() {
	}

	/**
	 * Return the innermost lock bound to the current thread that is the lock of the given
	 * resource in the given store, or {@code null}.
	 */
	static @Nullable DefaultLockHandle find(Object store, String resource) {
		if (LockContext.current().isEmpty()) {
			// The common case, at the cost of one thread-local read.
			return null;
		}
		List<LockHandle> handles = LockContext.held();
		for (int i = handles.size() - 1; i >= 0; i--) {
			if (handles.get(i) instanceof DefaultLockHandle handle && handle.isLockOf(store, resource)) {
				return handle;
			}
		}
		return null;
	}

	/**
	 * Run the callback with the given lock bound to the current thread.
	 */
	static <T extends @Nullable Object, E extends Throwable> T runBound(LockHandle handle, LockCallback<T, E> callback)
			throws E {
		try (LockContext scope = LockContext.open(handle)) {
			return callback.doWithLock(handle);
		}
	}

}
