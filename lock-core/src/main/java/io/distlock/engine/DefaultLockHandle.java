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
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockListener;
import io.distlock.LockRequest;
import io.distlock.lease.Lease;
import io.distlock.store.LockClient;

import org.springframework.util.Assert;

/**
 * The {@link LockHandle} of one acquisition: held until released or found lost, as its
 * {@link HoldState} tells and reports. A release by someone other than the work under the
 * lock ({@link #releasedUnderWork(String)}: cancelled async work, shutdown) completes
 * {@link #whenLost()} before the release; listeners hear of it as the release it is.
 */
final class DefaultLockHandle implements LockHandle, HeldLockRegistry.Entry {

	private static final Log logger = LogFactory.getLog(LockHandle.class);

	private final String key;

	private final String resource;

	private final String ownerToken;

	private final long fencingToken;

	private final LockClient client;

	private final LockKind kind;

	private final CompletableFuture<Void> lost = new CompletableFuture<>();

	private final HoldState hold;

	private final ReleaseHooks releaseHooks = new ReleaseHooks();

	private final HoldRelease release;

	private volatile @Nullable Tracking tracking;

	DefaultLockHandle(String key, String resource, String ownerToken, long fencingToken, LockClient client,
			LockListener listener) {
		this(key, "", resource, ownerToken, fencingToken, client, listener, LockKind.exclusive(client));
	}

	DefaultLockHandle(String key, String name, String resource, String ownerToken, long fencingToken, LockClient client,
			LockListener listener, LockKind kind) {
		this.key = key;
		this.kind = kind;
		this.resource = resource;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.client = client;
		this.hold = new HoldState(key, name, fencingToken, listener, logger, () -> this.lost.complete(null));
		this.release = new HoldRelease(key, resource, ownerToken, client, kind, this.hold, this.releaseHooks);
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	String resource() {
		return this.resource;
	}

	String ownerToken() {
		return this.ownerToken;
	}

	// The identity that re-entry matches on: the store instance and the prefixed key.
	@Override
	public boolean isLockOf(Object store, String resource) {
		return this.client == store && this.resource.equals(resource);
	}

	/**
	 * Return how this handle holds its key: exclusive, read, write or a permit.
	 */
	LockKind kind() {
		return this.kind;
	}

	/**
	 * Return the name under which the store renews and checks this hold's lease.
	 */
	String leaseKey() {
		return this.kind.leaseKey(this.resource);
	}

	/**
	 * Return the state of this acquisition: held, lost or released, its loss signal and
	 * the observation of holding it.
	 * @return the state
	 */
	HoldState hold() {
		return this.hold;
	}

	/**
	 * Return what runs around the release of this lock.
	 * @return the release hooks
	 */
	ReleaseHooks releaseHooks() {
		return this.releaseHooks;
	}

	@Override
	public boolean isHeld() {
		try {
			return !this.hold.isKnownNotHeld() && this.client.isHeld(leaseKey(), this.ownerToken);
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(this.key, ex);
		}
	}

	@Override
	public boolean extend(Duration leaseTime, Duration minHold) {
		Assert.isTrue(leaseTime != null && leaseTime.toMillis() >= 1 && leaseTime.compareTo(LockRequest.MAX_TTL) <= 0,
				() -> "'leaseTime' must be between 1ms and 365 days but was " + leaseTime);
		Assert.isTrue(minHold != null && !minHold.isNegative() && minHold.compareTo(leaseTime) <= 0,
				() -> "'minHold' must be between zero and 'leaseTime' (" + leaseTime + ") but was " + minHold);
		if (this.hold.isKnownNotHeld()) {
			return false;
		}
		boolean extended;
		long sentAt = System.nanoTime();
		try {
			extended = this.client.renew(leaseKey(), this.ownerToken, leaseTime);
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(this.key, ex);
		}
		if (!extended) {
			this.hold.markLost();
			return false;
		}
		this.hold.lease().extended(sentAt, leaseTime);
		this.release.holdAtLeast(this.hold.held().plus(minHold));
		return true;
	}

	@Override
	public CompletionStage<Void> whenLost() {
		// A minimal stage, so that callers cannot complete it.
		return this.lost.minimalCompletionStage();
	}

	/**
	 * Make this handle one of the held locks of its settings, until it is closed.
	 * @param request what was locked
	 * @param acquiredAt when, read from the renewer's clock
	 * @param lease its lease, if renewed
	 * @param untrack called once, when the handle is closed
	 */
	void track(LockRequest request, Instant acquiredAt, @Nullable Lease lease, Consumer<DefaultLockHandle> untrack) {
		if (lease != null) {
			this.hold.lease().renewedBy(lease);
		}
		this.tracking = new Tracking(request, acquiredAt, untrack);
	}

	@Override
	public @Nullable HeldLock describe(Instant now) {
		Tracking tracking = this.tracking;
		if (tracking == null) {
			return null;
		}
		LockRequest request = tracking.request();
		return this.hold.describe(request, tracking.acquiredAt(), now, request.mode(), request.permits());
	}

	/**
	 * Tell the work under this lock, just before someone other than that work releases
	 * it, that the lock no longer protects it: {@link #whenLost()} completes, on the
	 * calling thread, and a WARN names the lock; the release that follows reports.
	 * @param reason why it is released, completing "Lock 'k' is released ..."
	 */
	@Override
	public void releasedUnderWork(String reason) {
		this.hold.releasedUnderWork(reason);
	}

	@Override
	public void releaseNow() {
		close();
	}

	@Override
	public void close() {
		HoldState.State previous = this.hold.beginRelease();
		if (previous == HoldState.State.RELEASED) {
			return;
		}
		Tracking tracking = this.tracking;
		Duration requestedMinHold = (tracking != null) ? tracking.request().minHold() : Duration.ZERO;
		this.release.release(previous, requestedMinHold, () -> {
			if (tracking != null) {
				tracking.untrack().accept(this);
			}
		});
	}

	@Override
	public String toString() {
		return "LockHandle[key='" + this.key + "', " + this.kind.describe() + ", fencingToken=" + this.fencingToken
				+ ", state=" + this.hold.state() + "]";
	}

	private record Tracking(LockRequest request, Instant acquiredAt, Consumer<DefaultLockHandle> untrack) {

	}

}
