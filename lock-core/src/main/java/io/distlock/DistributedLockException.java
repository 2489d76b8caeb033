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

import org.jspecify.annotations.Nullable;

/**
 * Base class of the unchecked exceptions distlock throws.
 *
 * @see LockAcquisitionException
 * @see LockBackendException
 */
public abstract class DistributedLockException extends RuntimeException {

	private final String key;

	/**
	 * Create a new exception for the given lock key.
	 * @param key the lock key the failed operation was about
	 * @param message the detail message
	 * @param cause the cause, if any
	 */
	protected DistributedLockException(String key, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	/**
	 * Return the lock key the failed operation was about.
	 * @return the lock key
	 */
	public String getKey() {
		return this.key;
	}

}
