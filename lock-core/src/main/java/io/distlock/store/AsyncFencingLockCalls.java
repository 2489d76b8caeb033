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
import java.util.concurrent.CompletionStage;

/**
 * The calls of a {@link RaisableFencingLockClient} that a lock over several stores
 * (Redlock) needs, issued without blocking the caller: each returns at once, and the
 * store's reply completes the returned stage.
 *
 * <p>
 * A stage fails with a {@link io.distlock.LockBackendException} when the store fails or
 * cannot be reached. It may not complete for as long as the store does not answer, so
 * callers bound how long they wait for it.
 *
 * @see RaisableFencingLockClient#asyncCalls()
 * @see io.distlock.redlock.RedlockClient
 */
public interface AsyncFencingLockCalls {

	/**
	 * Try to take the lock, as {@link LockClient#tryAcquire} does.
	 * @param key the resource name
	 * @param ownerToken the token of this acquisition
	 * @param ttl the lease time
	 * @return the stage of the result
	 */
	CompletionStage<AcquireResult> tryAcquire(String key, String ownerToken, Duration ttl);

	/**
	 * Raise the fencing counter, as {@link RaisableFencingLockClient#raiseFencingToken}
	 * does.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param fencingToken the fencing token to raise the counter to
	 * @return the stage of whether the counter is at least the token now
	 */
	CompletionStage<Boolean> raiseFencingToken(String key, String ownerToken, long fencingToken);

	/**
	 * Release the lock, as {@link LockClient#release} does.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @return the stage of whether this owner held the lock
	 */
	CompletionStage<Boolean> release(String key, String ownerToken);

}
