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

package io.distlock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;

import io.distlock.LockAcquisitionException;
import io.distlock.LockContext;
import io.distlock.LockHandle;

import org.springframework.util.Assert;

/**
 * The distlock lock that the outermost hold of a {@link RegistryLock} took: its handle,
 * bound to the holding thread, and whether a re-entry found it lost. Used by the thread
 * that holds the registry lock only; its final unlock releases it and reports a loss.
 */
final class OuterHold {

	private final String key;

	private final LockHandle handle;

	// The binding of the handle to the thread that holds the lock.
	private final LockContext scope;

	// Set when a re-entry found the lock no longer held in Redis, before any renewal
	// reported it: the final unlock reports the loss.
	private volatile boolean lossFound;

	OuterHold(String key, LockHandle handle) {
		this.key = key;
		this.handle = handle;
		this.scope = LockContext.open(handle);
	}

	/**
	 * Check, for a re-entry, that Redis still holds the lock for this hold.
	 * @throws LockAcquisitionException if it no longer does: the nested section must not
	 * run, and the final unlock reports the loss
	 */
	void checkHeld() {
		if (!this.handle.isHeld()) {
			this.lossFound = true;
			throw new LockAcquisitionException(this.key, Duration.ZERO,
					"Lock '" + this.key
							+ "' cannot be re-entered: Redis no longer holds it for its outer hold; the nested section "
							+ "did not run, and the unlock of the outer hold reports the loss",
					null);
		}
	}

	/**
	 * Extend the lease of the lock.
	 * @param ttl the new lease time
	 * @throws IllegalStateException if the lock was lost
	 */
	void renew(Duration ttl) {
		Assert.state(this.handle.extend(ttl, Duration.ZERO),
				() -> "The lock '" + this.key + "' was lost: it cannot be renewed");
	}

	/**
	 * Release the lock and unbind it from the thread.
	 * @throws ConcurrentModificationException if the lock was lost before the release
	 */
	void release() {
		try {
			this.handle.close();
		}
		finally {
			this.scope.close();
		}
		// Known lost before the release stays known after it: the signal completes
		// once.
		if (this.lossFound || this.handle.whenLost().toCompletableFuture().isDone()) {
			throw lostBeforeUnlock(this.key);
		}
	}

	/**
	 * Return the failure of an unlock that found the lock lost.
	 * @param key the key of the lock
	 * @return the exception to throw
	 */
	static ConcurrentModificationException lostBeforeUnlock(String key) {
		return new ConcurrentModificationException("The lock '" + key + "' was lost before its unlock: "
				+ "another holder may have changed the data it protects");
	}

}
