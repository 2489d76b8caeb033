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
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one lock this instance holds, as the {@code locks} endpoint shows it.
 *
 * @param key the lock key, without the key prefix
 * @param name the lock's name (see {@link LockRequest#name()}), empty when unnamed
 * @param fencingToken the fencing token of the acquisition
 * @param acquiredAt when it was acquired
 * @param heldFor how long it has been held
 * @param leaseRemaining how long the lease lasts without another renewal, as of the last
 * confirmed renewal (or of the acquisition); {@code null} once it ran out or the lock was
 * found lost
 * @param holder the name of the thread that took it
 * @param autoRenew whether its lease is renewed while held
 * @param mode how the key is held: exclusive, for reading or for writing
 * @param permits how many holders the key may have at once: 1 for a plain lock, more for
 * a concurrency limit, of which this is one holder
 */
public record HeldLock(String key, String name, long fencingToken, Instant acquiredAt, Duration heldFor,
		@Nullable Duration leaseRemaining, String holder, boolean autoRenew, LockMode mode, int permits) {

	/**
	 * Describe an exclusive lock.
	 * @param key the lock key, without the key prefix
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition
	 * @param acquiredAt when it was acquired
	 * @param heldFor how long it has been held
	 * @param leaseRemaining how long the lease lasts without another renewal, or
	 * {@code null}
	 * @param holder the name of the thread that took it
	 * @param autoRenew whether its lease is renewed while held
	 */
	public HeldLock(String key, String name, long fencingToken, Instant acquiredAt, Duration heldFor,
			@Nullable Duration leaseRemaining, String holder, boolean autoRenew) {
		this(key, name, fencingToken, acquiredAt, heldFor, leaseRemaining, holder, autoRenew, LockMode.EXCLUSIVE, 1);
	}

}
