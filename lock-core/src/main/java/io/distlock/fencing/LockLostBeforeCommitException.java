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

package io.distlock.fencing;

import io.distlock.DistributedLockException;

/**
 * Thrown by the {@link LockCommitGuard} just before a transaction would commit while the
 * thread's lock is no longer held in the store: its lease ran out, or it was released or
 * taken from the holder. The transaction rolls back instead of committing writes that the
 * lock no longer protects.
 */
public class LockLostBeforeCommitException extends DistributedLockException {

	private final long fencingToken;

	/**
	 * Create a new exception for a lock found not held before a commit.
	 * @param key the lock key
	 * @param fencingToken the fencing token of the lock
	 */
	public LockLostBeforeCommitException(String key, long fencingToken) {
		super(key, "Transaction rolled back instead of committed: lock '" + key + "' (fencing token " + fencingToken
				+ "), which this thread took to protect it, is no longer held in the store (its lease ran out, or it "
				+ "was released or taken from this holder), so another holder may be writing the same data", null);
		this.fencingToken = fencingToken;
	}

	/**
	 * Return the fencing token of the lock found not held.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

}
