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
import java.util.List;

/**
 * The SPI of one lock store: atomic acquire, owner-checked release and owner-checked
 * renewal of a lease, each one round trip.
 *
 * <p>
 * Keys passed here are complete resource names (the key prefix already applied). Owner
 * tokens are unguessable and unique per acquisition. Implementations throw
 * {@code io.distlock.LockBackendException} when the store cannot be reached or answers
 * with an error, and never block longer than their command timeout.
 * <p>
 * These are the calls every store must answer. A store that can do more says so by
 * implementing a capability interface as well: {@link FairLockClient} for locks taken in
 * arrival order, {@link RaisableFencingLockClient} for taking part in a Redlock,
 * {@link InspectableLockClient} for telling an operator about a lock and removing it. The
 * {@code LockClientContractTests} of {@code lock-test-support} check an implementation.
 *
 * @see AcquireResult
 * @see FairLockClient
 */
public interface LockClient {

	/**
	 * Take the lock if it is free, for the given lease time.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition
	 * @param ttl the lease time
	 * @return {@link AcquireResult.Acquired} with a fencing token strictly greater than
	 * every token handed out for the key before, or {@link AcquireResult.Busy} with the
	 * current holder's remaining lease
	 */
	AcquireResult tryAcquire(String key, String ownerToken, Duration ttl);

	/**
	 * Take the lock as {@link #tryAcquire} does, for a caller that will not wait if it is
	 * busy (a try once): the store need not tell the holder that someone waits, so that
	 * the holder's release stays as cheap as an uncontended one. This default is
	 * {@link #tryAcquire}.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition
	 * @param ttl the lease time
	 * @return as {@link #tryAcquire}
	 */
	default AcquireResult tryAcquireOnce(String key, String ownerToken, Duration ttl) {
		return tryAcquire(key, ownerToken, ttl);
	}

	/**
	 * Release the lock if, and only if, it is held by the given owner.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition to release
	 * @return {@code true} if released, {@code false} if the lock was not held by that
	 * owner (it expired, and may belong to someone else now)
	 */
	boolean release(String key, String ownerToken);

	/**
	 * Extend the lease to the given time from now if, and only if, the lock is held by
	 * the given owner.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition to renew
	 * @param ttl the new lease time
	 * @return {@code true} if renewed, {@code false} if the lock was not held by that
	 * owner
	 */
	boolean renew(String key, String ownerToken, Duration ttl);

	/**
	 * Renew many leases at once, as {@link #renew} does for one. Implementations send
	 * them together (pipelined or batched) where the store allows; this default renews
	 * them one after the other.
	 * @param renewals the leases to renew
	 * @return for each renewal, in order, whether it was renewed
	 */
	default boolean[] renewAll(List<Renewal> renewals) {
		boolean[] renewed = new boolean[renewals.size()];
		for (int i = 0; i < renewed.length; i++) {
			Renewal renewal = renewals.get(i);
			renewed[i] = renew(renewal.key(), renewal.ownerToken(), renewal.ttl());
		}
		return renewed;
	}

	/**
	 * Tell whether the lock is held by the given owner.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @return whether that acquisition still holds the lock
	 */
	boolean isHeld(String key, String ownerToken);

}
