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

package io.distlock;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * One held acquisition of a distributed lock, released by {@link #close()}.
 *
 * <p>
 * Use it in a try-with-resources block so the lock is released also when the guarded code
 * throws. Pass {@link #fencingToken()} to the storage you write to, so that it can reject
 * a write from a holder whose lease ran out in the meantime.
 *
 * @see LockTemplate#tryAcquire(String, java.time.Duration, java.time.Duration)
 */
public interface LockHandle extends AutoCloseable {

	/**
	 * Return the key this lock was acquired for, as given by the caller (without the
	 * configured key prefix).
	 * @return the lock key
	 */
	String key();

	/**
	 * Return the fencing token of this acquisition: strictly greater than every token
	 * handed out for the same key before.
	 * @return the fencing token
	 */
	long fencingToken();

	/**
	 * Ask Redis whether this acquisition still holds the lock. Once the lock was released
	 * or found lost, this returns {@code false} without a Redis call: from the instant
	 * the renewer found it lost, before {@link #whenLost()} completes or any listener
	 * runs.
	 * @return whether the lock is still held by this handle
	 * @throws LockBackendException if Redis cannot be reached
	 */
	boolean isHeld();

	/**
	 * Return a stage that completes when this lock stops protecting the work under it
	 * while that work may still run. Async work can cancel itself with it:
	 * {@code lock.whenLost().thenRun(() -> work.cancel(true))}. It completes when:
	 * <ul>
	 * <li>the lock is found lost: a renewal found it gone or owned by someone else, or
	 * its lease ran out before a renewal was confirmed (or renewal stopped without a
	 * release: maximum hold time, holder thread ended, renewer closed). It completes on a
	 * thread of the lease renewer that renews nothing, before any
	 * {@code LockListener.onLost} or {@code LockLostEvent} listener runs, and no listener
	 * can delay it;</li>
	 * <li>the lock is released by someone other than the work, just before that release,
	 * on the releasing thread: the caller cancelled the stage of
	 * {@link LockTemplate#executeAsync(LockRequest, LockCallback) async work} (which does
	 * not stop a thread running it), or {@link LockAdministration#releaseHeldLocks()}
	 * released it on shutdown. A WARN names the lock and the reason; listeners hear of a
	 * release, not of a loss.</li>
	 * </ul>
	 * <p>
	 * It completes (with {@code null}) at most once. It never completes after a release
	 * by the work itself (the end of {@code execute}, {@link #close()}), and it stays
	 * incomplete for a lock without auto-renew until someone else releases it, since
	 * nothing detects its loss. Stages that depend on it run on the thread that completes
	 * it: keep them quick, or use an {@code ...Async} variant. The stage is read-only:
	 * completing it is not possible.
	 * @return a stage completed when the lock no longer protects the work
	 */
	CompletionStage<Void> whenLost();

	/**
	 * Extend this acquisition's lease, owner-checked in Redis: if this handle still holds
	 * the lock, it now expires {@code leaseTime} from now, and it stays held at least
	 * {@code minHold} from now even if closed before (this replaces the minimum hold of
	 * the request). This is what a lock without auto-renew uses to run longer than its
	 * ttl, as ShedLock's {@code SimpleLock.extend} does. On a lock renewed by the
	 * watchdog it sets the lease once; the next renewal sets it back to the renewal's.
	 * <p>
	 * A lock found no longer held (its lease ran out, or someone else holds it now) is
	 * reported lost, as {@link #whenLost()} describes, and is not extended.
	 * @param leaseTime the new lease, from now: at least 1ms
	 * @param minHold how long from now the lock stays held at least; zero for none, at
	 * most {@code leaseTime}
	 * @return {@code true} if extended; {@code false} if this handle no longer holds the
	 * lock (released, lost or expired)
	 * @throws IllegalArgumentException if a duration is out of range
	 * @throws LockBackendException if Redis cannot be reached
	 */
	boolean extend(Duration leaseTime, Duration minHold);

	/**
	 * Release the lock if this acquisition still holds it. Idempotent: calling it again
	 * does nothing. A lock that had expired (and may now belong to someone else) is left
	 * alone, logged at WARN and counted; that case does not throw.
	 * @throws LockBackendException if Redis cannot be reached to release the lock
	 */
	@Override
	void close();

}
