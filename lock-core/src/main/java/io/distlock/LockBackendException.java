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
 * Thrown when the lock backend could not be used: Redis was unreachable, did not answer
 * within the command timeout, or answered with an error. Tells "broken" apart from "busy"
 * ({@link LockAcquisitionException}).
 */
public class LockBackendException extends DistributedLockException {

	/**
	 * Create a new exception.
	 * @param key the lock key the failed operation was about
	 * @param message the detail message
	 * @param cause what the Redis client reported, if anything
	 */
	public LockBackendException(String key, String message, @Nullable Throwable cause) {
		super(key, message, cause);
	}

}
