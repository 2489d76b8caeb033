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

package io.distlock.engine;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockHolder;

/**
 * The exception for a lock that stayed busy, said one way by every front door: the key,
 * the lock's name (the annotated method, when there is one), the configured wait time and
 * how long the caller waited, the holder as the store named it in the last attempt's own
 * reply, and how to wait longer.
 */
final class BusyLocks {

	private BusyLocks() {
	}

	/**
	 * Make the exception for one key that stayed busy.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param waitTime the wait time the caller gave
	 * @param waited how long it waited
	 * @param last the answer of its last attempt, if any
	 */
	static LockAcquisitionException busy(String key, String name, Duration waitTime, Duration waited,
			@Nullable AcquireResult last) {
		String message = "Lock '" + key + "'" + (name.isEmpty() ? "" : " of " + name) + " was not acquired"
				+ within(waitTime, waited) + ": " + holder(last) + ". " + remedy(waitTime);
		return new LockAcquisitionException(key, waited, holderOf(last), message);
	}

	/**
	 * Make the exception for locks of several keys, one of which stayed busy.
	 * @param keys the keys, as the request lists them
	 * @param busyKey the key that stayed busy
	 * @param name the request's name, empty when unnamed
	 * @param waitTime the wait time the caller gave
	 * @param waited how long it waited
	 * @param last the answer of the last attempt at the busy key, if any
	 */
	static LockAcquisitionException busy(String keys, String busyKey, String name, Duration waitTime, Duration waited,
			@Nullable AcquireResult last) {
		String message = "Could not take locks [" + keys + "]" + (name.isEmpty() ? "" : " of " + name)
				+ within(waitTime, waited) + ": lock '" + busyKey + "' stayed busy, " + holder(last) + ". "
				+ remedy(waitTime);
		return new LockAcquisitionException(busyKey, waited, holderOf(last), message);
	}

	private static String within(Duration waitTime, Duration waited) {
		return waitTime.isZero() ? " at once (wait time 0, waited " + waited.toMillis() + "ms)"
				: " within its wait time of " + waitTime.toMillis() + "ms (waited " + waited.toMillis() + "ms)";
	}

	private static String holder(@Nullable AcquireResult last) {
		if (last instanceof AcquireResult.NotConfirmed notConfirmed) {
			return "the store could not confirm the last attempt (" + notConfirmed.reason() + ")";
		}
		LockHolder holder = holderOf(last);
		if (holder == null) {
			return "held by another owner";
		}
		return "held by " + holder.describe() + (holder.name().isEmpty() ? "" : " for " + holder.name())
				+ ((holder.acquiredAt() != null) ? " since " + holder.acquiredAt() : "");
	}

	private static @Nullable LockHolder holderOf(@Nullable AcquireResult last) {
		return (last instanceof AcquireResult.Busy busy) ? busy.holder() : null;
	}

	// A @DistributedLocked method's caller is told of the annotation instead (the
	// interceptor's BusyMethodMessage, which finds " of <name> " and ". To wait " here).
	private static String remedy(Duration waitTime) {
		return (waitTime.isZero() ? "To wait for the holder, give a wait time"
				: "To wait longer, give a longer wait time")
				+ ": LockRequest.Builder.waitTime(Duration), or waitTime on @DistributedLocked "
				+ "(distlock.default-wait-time for the methods that give none)";
	}

}
