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

package io.distlock.test.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Everything the in-memory store keeps for one key: the exclusive lock, read holds, the
 * mark of a writer waiting for readers, permits, the fair queue and the fencing counter.
 * Not thread-safe: {@link InMemoryLockClient} guards every instance with its monitor.
 */
final class KeyState {

	@Nullable Lease exclusive;

	@Nullable Lease waitingWriter;

	final Map<String, Instant> readers = new LinkedHashMap<>();

	final Map<String, Instant> permits = new LinkedHashMap<>();

	final Map<String, Instant> fairQueue = new LinkedHashMap<>();

	long lastFencingToken;

	/**
	 * Drop every lease, mark and queue place that ran out by the given time, as a store
	 * with key expiry would have.
	 */
	void expire(Instant now) {
		if (this.exclusive != null && !this.exclusive.expiresAt().isAfter(now)) {
			this.exclusive = null;
		}
		if (this.waitingWriter != null && !this.waitingWriter.expiresAt().isAfter(now)) {
			this.waitingWriter = null;
		}
		expire(this.readers, now);
		expire(this.permits, now);
		expire(this.fairQueue, now);
	}

	private static void expire(Map<String, Instant> leases, Instant now) {
		leases.values().removeIf((expiresAt) -> !expiresAt.isAfter(now));
	}

	boolean isExclusiveHolder(String ownerToken) {
		return this.exclusive != null && this.exclusive.ownerToken().equals(ownerToken);
	}

	boolean isFree() {
		return this.exclusive == null && this.readers.isEmpty();
	}

	long nextFencingToken() {
		return ++this.lastFencingToken;
	}

	/**
	 * Tell when the earliest of the given leases runs out.
	 */
	static @Nullable Instant earliest(Map<String, Instant> leases) {
		Instant earliest = null;
		for (Instant expiresAt : leases.values()) {
			if (earliest == null || expiresAt.isBefore(earliest)) {
				earliest = expiresAt;
			}
		}
		return earliest;
	}

	static @Nullable Instant latest(Map<String, Instant> leases) {
		Instant latest = null;
		for (Instant expiresAt : leases.values()) {
			if (latest == null || expiresAt.isAfter(latest)) {
				latest = expiresAt;
			}
		}
		return latest;
	}

	@Nullable String firstInQueue() {
		Iterator<String> queue = this.fairQueue.keySet().iterator();
		return queue.hasNext() ? queue.next() : null;
	}

	static Duration remaining(Instant now, Instant expiresAt) {
		return Duration.between(now, expiresAt);
	}

	/**
	 * One exclusive lease or writer's mark.
	 *
	 * @param ownerToken the holder's owner token
	 * @param expiresAt when it runs out
	 * @param fencingToken the fencing token of the acquisition, which also names the
	 * holder in {@code inspect}
	 */
	record Lease(String ownerToken, Instant expiresAt, long fencingToken) {

		Lease renewedUntil(Instant expiresAt) {
			return new Lease(this.ownerToken, expiresAt, this.fencingToken);
		}

	}

}
