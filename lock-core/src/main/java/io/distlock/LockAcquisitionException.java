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

import org.jspecify.annotations.Nullable;

import io.distlock.store.LockHolder;

/**
 * Thrown when a lock could not be acquired within its wait time because another owner
 * held it: the lock was busy, Redis itself worked.
 *
 * <p>
 * Also thrown when the waiting thread was interrupted; the cause is then an
 * {@link InterruptedException} and the thread's interrupt flag is still set. And thrown,
 * with no wait, when a nested {@code LockTemplate.execute} would re-enter a lock that its
 * outer call has lost: the nested code did not run.
 *
 * @see LockBackendException
 */
public class LockAcquisitionException extends DistributedLockException {

	private final Duration waited;

	private final @Nullable LockHolder holder;

	/**
	 * Create a new exception for a lock that stayed busy.
	 * @param key the lock key
	 * @param waited how long the caller waited before giving up
	 */
	public LockAcquisitionException(String key, Duration waited) {
		// The time waited is not the wait time, which is not known here.
		this(key, waited,
				"Lock '" + key + "' was not acquired: held by another owner (waited " + waited.toMillis() + "ms)",
				null);
	}

	/**
	 * Create a new exception with a message and cause of its own.
	 * @param key the lock key
	 * @param waited how long the caller waited before giving up
	 * @param message the detail message
	 * @param cause the cause, if any
	 */
	public LockAcquisitionException(String key, Duration waited, String message, @Nullable Throwable cause) {
		super(key, message, cause);
		this.waited = waited;
		this.holder = null;
	}

	/**
	 * Create a new exception for a lock that stayed busy, naming its holder.
	 * @param key the lock key
	 * @param waited how long the caller waited before giving up
	 * @param holder the holder, as the store named it in the last attempt's reply, or
	 * {@code null} when it did not
	 * @param message the detail message
	 */
	public LockAcquisitionException(String key, Duration waited, @Nullable LockHolder holder, String message) {
		super(key, message, null);
		this.waited = waited;
		this.holder = holder;
	}

	/**
	 * Return how long the caller waited for the lock before giving up.
	 * @return the time waited
	 */
	public Duration getWaited() {
		return this.waited;
	}

	/**
	 * Return the holder that kept the lock busy, as the store named it in the reply to
	 * the caller's last attempt: its instance, thread, lock name and acquisition time.
	 * @return the holder, or {@code null} when the store did not name one (the holder's
	 * owner token describes no holder, or the lock was not busy)
	 */
	public @Nullable LockHolder getHolder() {
		return this.holder;
	}

}
