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

package io.distlock.store;

import java.time.Duration;

/**
 * A {@link LockClient} whose keys can also be held for reading: the capability behind
 * read/write locks. Readers share a key with each other and exclude writers; the write
 * lock is the lock of {@link #tryAcquire}, so an exclusive lock and a write lock on the
 * same key are the same lock.
 *
 * <p>
 * A writer that finds readers keeps new readers out while it waits, for as long as it
 * keeps trying, so that a stream of overlapping readers cannot starve it: its
 * {@link AcquireResult.Busy} then says when to try again, which is soon enough to keep
 * them out. Writers get fencing tokens as always; readers do not raise them.
 * <p>
 * A read hold is a lease of its own, identified by the key and the reader's owner token:
 * {@link #renew}, {@link #renewAll} and {@link #isHeld} work for it with that same pair,
 * so a read hold is renewed like any lease, and a reader that crashed gives the key back
 * when its lease runs out.
 *
 * @see LockClient
 * @see FairLockClient
 */
public interface ReadWriteLockClient extends LockClient {

	/**
	 * Take a read hold of the key, shared with other readers, if no writer holds the lock
	 * or waits for it.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition
	 * @param ttl the lease time of this read hold
	 * @return {@link AcquireResult.Acquired} with a fencing token of this read hold's
	 * own, greater than every token handed out for the key before (writers' and
	 * readers'), or {@link AcquireResult.Busy} with the writer's remaining lease, or how
	 * long a waiting writer keeps readers out
	 */
	AcquireResult tryAcquireRead(String key, String ownerToken, Duration ttl);

	/**
	 * Take a read hold as {@link #tryAcquireRead} does, for a caller that will not wait
	 * if it is refused: the store need not announce it to the writer. This default is
	 * {@link #tryAcquireRead}.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition
	 * @param ttl the lease time of this read hold
	 * @return as {@link #tryAcquireRead}
	 */
	default AcquireResult tryAcquireReadOnce(String key, String ownerToken, Duration ttl) {
		return tryAcquireRead(key, ownerToken, ttl);
	}

	/**
	 * Release a read hold if, and only if, the given owner still has it; the release of
	 * the last reader wakes a waiting writer.
	 * @param key the resource name
	 * @param ownerToken the token of the read hold to release
	 * @return {@code true} if released, {@code false} if that owner had no read hold (it
	 * expired, or was released before)
	 */
	boolean releaseRead(String key, String ownerToken);

}
