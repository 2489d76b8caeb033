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

import java.util.Optional;

/**
 * A {@link LockClient} whose fencing counter can be raised to a token handed out
 * elsewhere, so that a lock over several stores (Redlock) keeps its tokens increasing on
 * each of them.
 *
 * @see io.distlock.redlock.RedlockClient
 */
public interface RaisableFencingLockClient extends LockClient {

	/**
	 * Raise this store's fencing counter for the key to at least the given token, while
	 * the given owner holds the lock here.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param fencingToken the fencing token to raise the counter to
	 * @return {@code true} if the counter is at least the token now, {@code false} if the
	 * lock is not held by that owner here
	 */
	boolean raiseFencingToken(String key, String ownerToken, long fencingToken);

	/**
	 * Return the calls of this store that do not block the caller, if it has them: a lock
	 * over several stores then calls them all at once from the calling thread.
	 * @return the non-blocking calls, or empty (the default) if this store only blocks
	 */
	default Optional<AsyncFencingLockCalls> asyncCalls() {
		return Optional.empty();
	}

}
