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
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.store.LockClient;

/**
 * The release of one acquisition in the store, when its {@link DefaultLockHandle} is
 * closed: deletes the lock, or, before its minimum hold time has passed, leaves it to
 * expire then; runs the {@link ReleaseHooks} around it and reports the outcome through
 * the {@link HoldState}.
 */
final class HoldRelease {

	// Logs as the handle: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LockHandle.class);

	private final String key;

	private final String resource;

	private final String ownerToken;

	private final LockClient client;

	private final LockKind kind;

	private final HoldState hold;

	private final ReleaseHooks releaseHooks;

	// Set by extend(): the minimum hold, counted from the acquisition, that replaces the
	// request's.
	private volatile @Nullable Duration minHoldSinceAcquired;

	HoldRelease(String key, String resource, String ownerToken, LockClient client, LockKind kind, HoldState hold,
			ReleaseHooks releaseHooks) {
		this.key = key;
		this.resource = resource;
		this.ownerToken = ownerToken;
		this.client = client;
		this.kind = kind;
		this.hold = hold;
		this.releaseHooks = releaseHooks;
	}

	/**
	 * Keep the lock held at least this long after its acquisition, instead of the
	 * request's minimum hold time, as an extension asked.
	 * @param minHold the minimum hold, counted from the acquisition
	 */
	void holdAtLeast(Duration minHold) {
		this.minHoldSinceAcquired = minHold;
	}

	/**
	 * Release the lock once its handle began its release.
	 * @param previous the state of the hold before its release began
	 * @param requestedMinHold the request's minimum hold time
	 * @param untrack takes the handle off the held locks, first
	 */
	void release(HoldState.State previous, Duration requestedMinHold, Runnable untrack) {
		// Cleanup on an interrupted thread (a cancelled task, a stopping component) still
		// releases: the Redis client would abandon the call, leaving the lock to its ttl.
		// The interrupt is set aside for the release, and kept.
		boolean interrupted = Thread.interrupted();
		try {
			untrack.run();
			releaseInStore(previous, requestedMinHold);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void releaseInStore(HoldState.State previous, Duration requestedMinHold) {
		this.releaseHooks.runBefore();
		Duration held = this.hold.held();
		Duration minHold = this.minHoldSinceAcquired;
		if (minHold == null) {
			minHold = requestedMinHold;
		}
		Duration keep = minHold.minus(held);
		boolean keepHeld = keep.toMillis() > 0;
		boolean released;
		try {
			// Before its minimum hold time, the lock is not deleted but left to expire
			// then: owner-checked, like a release, and without waking anyone early.
			BooleanSupplier release = this.releaseHooks.release();
			released = keepHeld ? this.client.renew(this.kind.leaseKey(this.resource), this.ownerToken, keep)
					: (release != null) ? release.getAsBoolean() : this.kind.release(this.resource, this.ownerToken);
		}
		catch (RuntimeException ex) {
			// Released or not, the lock ends here for this handle: it is never closed
			// again, and its lease is no longer renewed.
			this.hold.releaseFailed(held, ex);
			this.hold.stopHolding("failed", ex);
			throw (ex instanceof LockBackendException backendFailure)
					? LockBackendException.forKey(this.key, backendFailure) : ex;
		}
		if (released) {
			if (!keepHeld) {
				this.releaseHooks.runAfter();
			}
			if (keepHeld && logger.isDebugEnabled()) {
				logger.debug("Lock '" + this.key + "' stays held for the remaining " + keep.toMillis()
						+ "ms of its minimum hold time");
			}
			this.hold.released(held);
			this.hold.stopHolding("released", null);
			return;
		}
		this.hold.releaseMismatched(previous, held);
		this.hold.stopHolding("mismatch", null);
	}

}
