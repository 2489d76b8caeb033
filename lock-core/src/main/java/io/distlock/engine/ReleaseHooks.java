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

import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * What runs around the release of one held lock: before the release script, instead of
 * it, and after it deleted the lock.
 */
final class ReleaseHooks {

	private volatile @Nullable Runnable before;

	private volatile @Nullable Runnable after;

	private volatile @Nullable BooleanSupplier release;

	/**
	 * Run the given action before the release script, so that lease renewal is stopped
	 * before the release and cannot resurrect the lease afterwards.
	 * @param action the action to run once, before releasing
	 */
	void beforeRelease(Runnable action) {
		this.before = action;
	}

	/**
	 * Run the given action once the release script deleted the lock, such as waking a
	 * waiter of this application that the store may not notify.
	 * @param action the action to run once, after a release that deleted the lock
	 */
	void afterRelease(Runnable action) {
		this.after = action;
	}

	/**
	 * Release the lock with the given action instead of the store's owner-checked
	 * release, such as one that may hand the lock to a waiter of this application.
	 * @param release the release, answering {@code true} when the lock was released (or
	 * handed over) and {@code false} when this owner no longer held it
	 */
	void releaseWith(BooleanSupplier release) {
		this.release = release;
	}

	void runBefore() {
		Runnable before = this.before;
		if (before != null) {
			before.run();
		}
	}

	void runAfter() {
		Runnable after = this.after;
		if (after != null) {
			after.run();
		}
	}

	@Nullable BooleanSupplier release() {
		return this.release;
	}

}
