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

import reactor.core.publisher.Mono;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;

/**
 * The non-blocking SPI of one lock store, for
 * {@code io.distlock.reactive.ReactiveLockTemplate}: atomic acquire and owner-checked
 * release of a lease, each one round trip, answered by a {@link Mono} that no thread
 * waits for.
 *
 * <p>
 * It follows the contract of {@link LockClient}: keys are complete resource names, owner
 * tokens are unguessable and unique per acquisition, and a store that cannot be reached
 * or answers with an error signals {@code io.distlock.LockBackendException} within its
 * command timeout. Renewal is not part of it: the lease renewer renews reactive locks
 * with the store's {@link LockClient}, on threads of its own.
 *
 * @see io.distlock.redis.ReactiveRedisLockClient
 */
public interface ReactiveLockClient {

	/**
	 * Take the lock if it is free, for the given lease time.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition
	 * @param ttl the lease time
	 * @return a {@link Mono} of {@link AcquireResult.Acquired} with a fencing token
	 * strictly greater than every token handed out for the key before,
	 * {@link AcquireResult.Busy} with the holder's remaining lease, or
	 * {@link AcquireResult.NotConfirmed}
	 */
	Mono<AcquireResult> tryAcquire(String key, String ownerToken, Duration ttl);

	/**
	 * Take the lock as {@link #tryAcquire} does, for a caller that will not wait if it is
	 * busy: the store need not tell the holder that someone waits. This default is
	 * {@link #tryAcquire}.
	 * @param key the resource name
	 * @param ownerToken the token identifying this acquisition
	 * @param ttl the lease time
	 * @return as {@link #tryAcquire}
	 */
	default Mono<AcquireResult> tryAcquireOnce(String key, String ownerToken, Duration ttl) {
		return tryAcquire(key, ownerToken, ttl);
	}

	/**
	 * Release the lock if, and only if, it is held by the given owner.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition to release
	 * @return a {@link Mono} of {@code true} if released, {@code false} if the lock was
	 * not held by that owner
	 */
	Mono<Boolean> release(String key, String ownerToken);

}
