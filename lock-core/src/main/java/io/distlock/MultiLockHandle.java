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

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The locks of several keys held together, as taken by
 * {@link LockTemplate#tryAcquireAll(MultiLockRequest)} or given to a
 * {@link MultiLockCallback}: closing it releases all of them.
 *
 * @see MultiLockRequest
 */
public interface MultiLockHandle extends AutoCloseable {

	/**
	 * Return the held keys, in their global order.
	 * @return the keys, without the key prefix
	 */
	List<String> keys();

	/**
	 * Return the lock of each key, in the order of {@link #keys()}.
	 * @return the locks
	 */
	List<LockHandle> locks();

	/**
	 * Return the fencing token of the given key's lock.
	 * @param key one of the {@link #keys()}
	 * @return its fencing token
	 * @throws IllegalArgumentException if the key is not one of this handle's
	 */
	long fencingToken(String key);

	/**
	 * Ask the store whether every key is still held by this acquisition.
	 * @return whether all locks are still held
	 * @throws LockBackendException if the store cannot be reached
	 */
	boolean isHeld();

	/**
	 * Return a stage that completes when any of the locks is found lost, as
	 * {@link LockHandle#whenLost()} does for one.
	 * @return a read-only stage completed when a lock is found lost
	 */
	CompletionStage<Void> whenLost();

	/**
	 * Release every lock this handle took, in the reverse of their order; locks it
	 * re-entered from an outer call stay with that call. Idempotent. Every release is
	 * tried even when one fails.
	 * @throws LockBackendException if a release failed, with the other failures
	 * suppressed
	 */
	@Override
	void close();

}
