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

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the lock backend could not be used: Redis was unreachable, did not answer
 * within the command timeout, or answered with an error. Tells "broken" apart from "busy"
 * ({@link LockAcquisitionException}).
 */
public class LockBackendException extends DistributedLockException {

	private final String storeKey;

	/**
	 * Create a new exception, as a lock store does: it knows only the key in the store.
	 * @param key the key the failed operation was about
	 * @param message the detail message
	 * @param cause what the Redis client reported, if anything
	 */
	public LockBackendException(String key, String message, @Nullable Throwable cause) {
		this(key, key, message, cause);
	}

	/**
	 * Create a new exception for a caller's key and the key it has in the store.
	 * @param key the lock key as the caller gave it, without the key prefix
	 * @param storeKey the key in the store, with the key prefix
	 * @param message the detail message
	 * @param cause what the Redis client reported, if anything
	 */
	public LockBackendException(String key, String storeKey, String message, @Nullable Throwable cause) {
		super(key, message, cause);
		this.storeKey = storeKey;
	}

	/**
	 * Return the key the lock has in the store, with the key prefix; the same as
	 * {@link #getKey()} when a lock store threw this exception itself.
	 * @return the key in the store
	 */
	public String getStoreKey() {
		return this.storeKey;
	}

	/**
	 * Return an exception like the given store failure, about the caller's key, as the
	 * templates report a store's failure.
	 * @param key the lock key as the caller gave it, without the key prefix
	 * @param storeFailure what the store threw, about its own key
	 * @return the failure about the caller's key, or the given one if it already is
	 */
	public static LockBackendException forKey(String key, LockBackendException storeFailure) {
		if (key.equals(storeFailure.getKey())) {
			return storeFailure;
		}
		LockBackendException translated = new LockBackendException(key, storeFailure.getStoreKey(),
				Objects.requireNonNullElse(storeFailure.getMessage(), "Lock store failure"), storeFailure.getCause());
		translated.setStackTrace(storeFailure.getStackTrace());
		// Such as a failed release after a failed acquire attempt.
		for (Throwable suppressed : storeFailure.getSuppressed()) {
			translated.addSuppressed(suppressed);
		}
		return translated;
	}

}
