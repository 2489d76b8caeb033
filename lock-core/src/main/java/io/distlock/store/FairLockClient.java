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
 * A {@link LockClient} that can also hand out locks in arrival order: the capability
 * behind {@code @DistributedLocked(fair = true)} and
 * {@link io.distlock.LockRequest#withFair(boolean) fair requests}.
 *
 * <p>
 * A fair request on a store without this capability is refused: at startup for an
 * annotated method, at the call for the template.
 *
 * @see LockClient
 */
public interface FairLockClient extends LockClient {

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
	 */
	AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout);

	/**
	 * Leave the queue of a fair lock without taking it, because the caller gave up or was
	 * interrupted; when it was first, the next waiter is woken.
	 * @param key the resource name
	 * @param ownerToken the token the caller queued with
	 * @return {@code true} if the caller had a place in the queue
	 */
	boolean leaveQueue(String key, String ownerToken);

}
