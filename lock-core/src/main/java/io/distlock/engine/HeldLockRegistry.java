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

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;

/**
 * The locks that the front doors of one {@link LockSettings} hold now, taken by any
 * thread or subscriber and not yet released: what the {@code locks} endpoint lists,
 * {@code forceRelease} tells first and shutdown releases.
 */
final class HeldLockRegistry {

	private static final Log logger = LogFactory.getLog(HeldLockRegistry.class);

	private final Set<Entry> held = ConcurrentHashMap.newKeySet();

	void add(Entry lock) {
		this.held.add(lock);
	}

	void remove(Entry lock) {
		this.held.remove(lock);
	}

	List<HeldLock> describe(Instant now) {
		List<HeldLock> described = new ArrayList<>();
		for (Entry lock : this.held) {
			HeldLock description = lock.describe(now);
			if (description != null) {
				described.add(description);
			}
		}
		described.sort(Comparator.comparing(HeldLock::acquiredAt));
		return described;
	}

	/**
	 * Tell the work under every lock of the given store and resource that the lock is
	 * released under it, before an operator removes it.
	 */
	void releasingUnderWork(Object store, String resource, String reason) {
		for (Entry lock : List.copyOf(this.held)) {
			if (lock.isLockOf(store, resource)) {
				lock.releasedUnderWork(reason);
			}
		}
	}

	/**
	 * Release every lock, owner-checked, telling the work under each first.
	 * @return how many were released
	 */
	int releaseAll(String reason) {
		int released = 0;
		for (Entry lock : List.copyOf(this.held)) {
			try {
				lock.releasedUnderWork(reason);
				lock.releaseNow();
				released++;
			}
			catch (RuntimeException ex) {
				logger.warn("Could not release lock '" + lock.key() + "'; it expires after its ttl", ex);
			}
		}
		return released;
	}

	/**
	 * One held lock, as the registry sees it.
	 */
	interface Entry {

		String key();

		@Nullable HeldLock describe(Instant now);

		boolean isLockOf(Object store, String resource);

		void releasedUnderWork(String reason);

		/**
		 * Release the lock and wait for the release to end.
		 */
		void releaseNow();

	}

}
