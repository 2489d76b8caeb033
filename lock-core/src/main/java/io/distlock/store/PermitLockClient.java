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
 * A {@link LockClient} that can also hand out a key as a number of permits, held at once
 * by at most that many owners across all applications: the capability behind a
 * cluster-wide concurrency limit such as {@code @DistributedLocked(permits = 5)}.
 *
 * <p>
 * Each permit is a lease of its own: it is renewed while held and returns by itself when
 * its holder stops renewing it (a crashed holder's permit is free again after its ttl).
 * The limit is the caller's: an acquisition succeeds when fewer than its own
 * {@code permits} leases are held, so callers that disagree about the limit each apply
 * their own, and the smallest limit among them is the one that can always be relied on.
 * One permit ({@code permits = 1}) is exclusive among permit callers only: permits and
 * the exclusive lock of {@link #tryAcquire} are independent, even for the same key.
 *
 * <p>
 * A permit is renewed, checked and released through the ordinary calls of
 * {@link LockClient} with its {@link #permitLeaseKey lease key} in place of the key:
 * {@code renew(permitLeaseKey(key), ownerToken, ttl)}, the same in
 * {@link LockClient#renewAll renewAll}, {@code isHeld(permitLeaseKey(key), ownerToken)}
 * and {@code release(permitLeaseKey(key), ownerToken)}. So a lease renewer that knows
 * nothing of permits keeps them alive through one {@code (key, ownerToken)} pair, as it
 * does exclusive locks.
 *
 * @see LockClient
 * @see FairLockClient
 */
public interface PermitLockClient extends LockClient {

	/**
	 * Take one of the key's permits if fewer than {@code permits} are held, for the given
	 * lease time.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition; it holds one permit at
	 * most, so a second call with a token that holds one is answered busy
	 * @param ttl the lease time of this permit
	 * @param permits how many holders the key may have at once, this one included
	 * @return {@link AcquireResult.Acquired} with a fencing token strictly greater than
	 * every token handed out for the key before, or {@link AcquireResult.Busy} with the
	 * time until the earliest permit lease expires
	 * @throws IllegalArgumentException if {@code permits} is less than 1
	 */
	AcquireResult tryAcquirePermit(String key, String ownerToken, Duration ttl, int permits);

	/**
	 * Give back the permit held by the given owner, if it still holds one, and publish
	 * the release so that a waiter wakes up.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition to release
	 * @return {@code true} if released, {@code false} if that owner held no permit (its
	 * lease expired, and the permit may belong to someone else now)
	 */
	boolean releasePermit(String key, String ownerToken);

	/**
	 * Return the name under which the permits of the given key are renewed, checked and
	 * released through {@link #renew}, {@link #renewAll}, {@link #isHeld} and
	 * {@link #release}. It is never the resource name of any lock, so it cannot be
	 * mistaken for an exclusive lock; it is meant for those calls only, not for events or
	 * logs.
	 * @param key the resource name
	 * @return the lease key of the key's permits
	 */
	String permitLeaseKey(String key);

}
