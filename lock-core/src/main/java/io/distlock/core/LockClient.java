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

package io.distlock.core;

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
 *
 * @see AcquireResult
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
	 * Take the lock in arrival order among fair callers: only when it is free and no
	 * other fair waiter queued for it first. A caller that does not get it joins the
	 * key's queue, or keeps its place there, for {@code queueTimeout}; it keeps its place
	 * by calling again within that time, and loses it when it does not, so a waiter that
	 * crashed cannot block the queue. Taking the lock ends the caller's place. Fairness
	 * holds among fair callers only: {@link #tryAcquire} does not look at the queue.
	 * <p>
	 * When a fair lock is released while waiters queue, the store wakes the first of them
	 * by naming its owner token (instead of the key) in the release notification.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition, also the caller's place
	 * in the queue
	 * @param ttl the lease time
	 * @param queueTimeout how long the caller's place is kept without another call; zero
	 * to try once without joining the queue
	 * @return {@link AcquireResult.Acquired} as for {@link #tryAcquire}, or
	 * {@link AcquireResult.Busy} with the holder's remaining lease or, while the lock is
	 * free for an earlier waiter, how long that waiter's place is kept
	 * @throws UnsupportedOperationException if the store has no fair mode (the default)
	 */
	default AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support fair locks");
	}

	/**
	 * Leave the queue of a fair lock without taking it, because the caller gave up or was
	 * interrupted; when it was first, the next waiter is woken.
	 * @param key the resource name
	 * @param ownerToken the token the caller queued with
	 * @return {@code true} if the caller had a place in the queue
	 */
	default boolean leaveQueue(String key, String ownerToken) {
		return false;
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
