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

/**
 * A {@link LockClient} that can hand a held exclusive lock straight to a new owner of the
 * same application, with a new fencing token, so that threads queueing locally for a key
 * need no release and no acquisition in between.
 *
 * <p>
 * The store declines whenever a caller it cannot see through this application waits for
 * the lock (it announced itself, queues fairly, or waits as a writer for readers): the
 * holder then releases the lock as usual, so that waiters elsewhere are not starved.
 */
public interface HandoverLockClient extends LockClient {

	/**
	 * Hand the lock held by the given owner to the new owner, atomically: the new owner
	 * holds it for the given lease and gets a fencing token greater than every token
	 * handed out before.
	 * @param key the resource name
	 * @param ownerToken the token of the current holder
	 * @param newOwnerToken the token of the new holder
	 * @param ttl the new holder's lease time
	 * @return the outcome; when not {@link HandedOver}, the current holder's lock is left
	 * as it was
	 */
	Handover handOver(String key, String ownerToken, String newOwnerToken, Duration ttl);

	/**
	 * The outcome of a {@link #handOver hand-over}.
	 */
	sealed interface Handover {

	}

	/**
	 * The new owner holds the lock now.
	 *
	 * @param fencingToken the new owner's fencing token
	 */
	record HandedOver(long fencingToken) implements Handover {

	}

	/**
	 * Someone else waits for the lock: the current owner still holds it, and should
	 * release it as usual.
	 */
	record Declined() implements Handover {

	}

	/**
	 * The current owner does not hold the lock (its lease ran out, or it was removed);
	 * nothing was changed.
	 */
	record NotHeld() implements Handover {

	}

}
