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
	 * or found lost, this returns {@code false} without a Redis call.
	 * @return whether the lock is still held by this handle
	 * @throws LockBackendException if Redis cannot be reached
	 */
	boolean isHeld();

	/**
	 * Return a stage that completes when this lock is found lost: a renewal found it gone
	 * or owned by someone else, or its lease ran out before a renewal was confirmed (or
	 * renewal stopped without a release: maximum hold time, shutdown). Async work can
	 * cancel itself with it: {@code lock.whenLost().thenRun(() -> work.cancel(true))}.
	 * <p>
	 * It completes (with {@code null}) at most once, on a thread of the lease renewer
	 * that renews nothing, at the same time as {@code LockListener.onLost}; it never
	 * completes after a normal release, and it stays incomplete for a lock without
	 * auto-renew, whose loss nothing detects. The stage is read-only: completing it is
	 * not possible.
	 * @return a stage completed when the lock is found lost
	 */
	CompletionStage<Void> whenLost();

	/**
	 * Release the lock if this acquisition still holds it. Idempotent: calling it again
	 * does nothing. A lock that had expired (and may now belong to someone else) is left
	 * alone, logged at WARN and counted; that case does not throw.
	 * @throws LockBackendException if Redis cannot be reached to release the lock
	 */
	@Override
	void close();

}
