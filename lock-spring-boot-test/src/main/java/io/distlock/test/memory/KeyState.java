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

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.distlock.store.LockHolder;
import io.distlock.store.LockState;

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
	 * Tell when the earliest of the given leases, of which there is at least one, runs
	 * out.
	 */
	static Instant earliest(Map<String, Instant> leases) {
		return leases.values().stream().min(Comparator.naturalOrder()).orElseThrow(KeyState::noLease);
	}

	/**
	 * Tell when the latest of the given leases, of which there is at least one, runs out.
	 */
	static Instant latest(Map<String, Instant> leases) {
		return leases.values().stream().max(Comparator.naturalOrder()).orElseThrow(KeyState::noLease);
	}

	private static IllegalStateException noLease() {
		return new IllegalStateException("No lease: a busy answer needs one");
	}

	/**
	 * Tell who holds the lease of the given leases that runs out at the given time: the
	 * holder its owner token describes.
	 */
	static @Nullable LockHolder holderUntil(Map<String, Instant> leases, @Nullable Instant expiresAt) {
		for (Map.Entry<String, Instant> lease : leases.entrySet()) {
			if (lease.getValue().equals(expiresAt)) {
				return LockHolder.ofOwnerToken(lease.getKey());
			}
		}
		return null;
	}

	/**
	 * List who holds the key, as {@code inspect} answers it: the exclusive holder named
	 * by its fencing token, read holds and permits by a digest of their owner token.
	 */
	List<LockState.Holding> holdings(Instant now) {
		List<LockState.Holding> holdings = new ArrayList<>();
		Lease exclusive = this.exclusive;
		if (exclusive != null) {
			holdings.add(new LockState.Holding(LockState.Kind.EXCLUSIVE, "acquisition-" + exclusive.fencingToken(),
					LockHolder.ofOwnerToken(exclusive.ownerToken()), remaining(now, exclusive.expiresAt())));
		}
		this.readers.forEach((owner, expiresAt) -> holdings.add(new LockState.Holding(LockState.Kind.READ,
				digest(owner), LockHolder.ofOwnerToken(owner), remaining(now, expiresAt))));
		this.permits.forEach((owner, expiresAt) -> holdings.add(new LockState.Holding(LockState.Kind.PERMIT,
				digest(owner), LockHolder.ofOwnerToken(owner), remaining(now, expiresAt))));
		return holdings;
	}

	// The first 16 hex digits of the SHA-1 of the owner's secret, as the Redis store
	// names a holding.
	private static String digest(String ownerToken) {
		int separator = ownerToken.indexOf(LockHolder.SEPARATOR);
		String secret = (separator >= 0) ? ownerToken.substring(0, separator) : ownerToken;
		try {
			byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(secret.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(sha1, 0, 8);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-1 is not available", ex);
		}
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
