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

import java.util.Objects;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import io.distlock.store.ReactiveLockClient;

/**
 * The locks a reactive pipeline holds, innermost last, carried in its Reactor context as
 * the thread-bound locks are in {@link BoundLocks}: what a nested
 * {@code ReactiveLockTemplate} call re-enters and {@code currentLock()} answers.
 */
record ReactiveBoundLocks(List<Bound> locks) {

	private static final Class<ReactiveBoundLocks> CONTEXT_KEY = ReactiveBoundLocks.class;

	private static final ReactiveBoundLocks NONE = new ReactiveBoundLocks(List.of());

	static ReactiveBoundLocks in(ContextView context) {
		return Objects.requireNonNull(context.getOrDefault(CONTEXT_KEY, NONE));
	}

	/**
	 * Return the innermost lock of the given resource of the given store: the lock a
	 * nested call on that store and resource re-enters.
	 */
	@Nullable HeldReactiveLock find(ReactiveLockClient store, String resource) {
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			Bound bound = this.locks.get(i);
			if (bound.store() == store && bound.lock().resource().equals(resource)) {
				return bound.lock();
			}
		}
		return null;
	}

	/**
	 * Return the innermost lock of the given key, whatever its store and prefix.
	 */
	@Nullable HeldReactiveLock findKey(String key) {
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			if (this.locks.get(i).lock().key().equals(key)) {
				return this.locks.get(i).lock();
			}
		}
		return null;
	}

	@Nullable HeldReactiveLock innermost() {
		return this.locks.isEmpty() ? null : this.locks.get(this.locks.size() - 1).lock();
	}

	private ReactiveBoundLocks with(ReactiveLockClient store, HeldReactiveLock lock) {
		List<Bound> locks = new ArrayList<>(this.locks);
		locks.add(new Bound(store, lock));
		return new ReactiveBoundLocks(List.copyOf(locks));
	}

	/**
	 * Put these locks and the given one into the context of the work under that lock,
	 * with the observation of holding it as the current one.
	 */
	Context bind(ReactiveLockClient store, HeldReactiveLock lock, Context context) {
		return lock.observedIn(with(store, lock).into(context));
	}

	private Context into(Context context) {
		return context.put(CONTEXT_KEY, this);
	}

	/**
	 * A lock held in a pipeline, and the store it was taken from.
	 */
	record Bound(ReactiveLockClient store, HeldReactiveLock lock) {

	}

}
