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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;

/**
 * The {@link MultiLockHandle} of one acquisition of several keys: the locks it took,
 * which it releases, and those it re-entered from an outer call, which it leaves alone.
 */
final class DefaultMultiLockHandle implements MultiLockHandle {

	private final List<LockHandle> locks;

	private final List<LockHandle> taken;

	private final List<String> keys;

	private final CompletableFuture<Void> lost = new CompletableFuture<>();

	private final AtomicBoolean closed = new AtomicBoolean();

	/**
	 * Create a handle over the given locks.
	 * @param locks the lock of every key, in the keys' global order
	 * @param taken those of them this handle took and releases
	 */
	DefaultMultiLockHandle(List<LockHandle> locks, Set<LockHandle> taken) {
		this.locks = List.copyOf(locks);
		this.taken = this.locks.stream().filter(taken::contains).toList();
		this.keys = this.locks.stream().map(LockHandle::key).toList();
		for (LockHandle lock : this.locks) {
			lock.whenLost().thenRun(() -> this.lost.complete(null));
		}
	}

	@Override
	public List<String> keys() {
		return this.keys;
	}

	@Override
	public List<LockHandle> locks() {
		return this.locks;
	}

	/**
	 * Return the locks this handle took, in the keys' global order.
	 * @return the locks it releases
	 */
	List<LockHandle> taken() {
		return this.taken;
	}

	@Override
	public long fencingToken(String key) {
		for (LockHandle lock : this.locks) {
			if (lock.key().equals(key)) {
				return lock.fencingToken();
			}
		}
		throw new IllegalArgumentException("Key '" + key + "' is not one of the held keys " + this.keys);
	}

	@Override
	public boolean isHeld() {
		for (LockHandle lock : this.locks) {
			if (!lock.isHeld()) {
				return false;
			}
		}
		return true;
	}

	@Override
	public CompletionStage<Void> whenLost() {
		return this.lost.minimalCompletionStage();
	}

	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		RuntimeException failure = releaseAll(this.taken);
		if (failure != null) {
			throw failure;
		}
	}

	/**
	 * Close the given locks in reverse order, each even when another failed.
	 * @param locks the locks to close
	 * @return the first failure, with the later ones suppressed, or {@code null}
	 */
	static @Nullable RuntimeException releaseAll(List<? extends LockHandle> locks) {
		RuntimeException failure = null;
		List<LockHandle> reversed = new ArrayList<>(locks);
		Collections.reverse(reversed);
		for (LockHandle lock : reversed) {
			try {
				lock.close();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		return failure;
	}

	@Override
	public String toString() {
		return "MultiLockHandle" + this.locks;
	}

}
