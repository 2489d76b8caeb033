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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.lease.Lease;
import io.distlock.core.LockClient;
import io.distlock.observation.LockObservationContext;

/**
 * The {@link LockHandle} of one acquisition: held until released or found lost.
 *
 * <p>
 * Every acquisition ends exactly once for the {@link LockListener listener}, when the
 * handle is closed: {@code onReleased}, {@code onReleaseMismatch} (also for a lock found
 * lost before), or {@code onReleaseFailed}.
 * <p>
 * A loss takes effect before any listener hears of it: {@link #whenLost()} completes and
 * {@link #isHeld()} answers {@code false} first, then {@code onLost} is handed to the
 * listener threads, so that no listener can delay them. A release by someone other than
 * the work under the lock ({@link #releasedUnderWork(String)}: cancellation of async
 * work, {@link LockTemplate#releaseHeldLocks()}) completes {@link #whenLost()} as well,
 * before the release; listeners hear of it as the release it is.
 */
final class DefaultLockHandle implements LockHandle {

	private static final Log logger = LogFactory.getLog(LockHandle.class);

	private final String key;

	private final String name;

	private final String resource;

	private final String ownerToken;

	private final long fencingToken;

	private final LockClient client;

	private final LockListener listener;

	private final LockKind kind;

	private final long acquiredAtNanos = System.nanoTime();

	private final Thread holder = Thread.currentThread();

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private final CompletableFuture<Void> lost = new CompletableFuture<>();

	private volatile @Nullable Runnable beforeRelease;

	private volatile @Nullable Runnable afterRelease;

	private volatile @Nullable BooleanSupplier release;

	private volatile @Nullable Tracking tracking;

	private volatile Executor lostListeners = Runnable::run;

	private volatile Observation holding = Observation.NOOP;

	DefaultLockHandle(String key, String resource, String ownerToken, long fencingToken, LockClient client,
			LockListener listener) {
		this(key, "", resource, ownerToken, fencingToken, client, listener);
	}

	DefaultLockHandle(String key, String name, String resource, String ownerToken, long fencingToken, LockClient client,
			LockListener listener) {
		this(key, name, resource, ownerToken, fencingToken, client, listener, LockKind.exclusive(client));
	}

	DefaultLockHandle(String key, String name, String resource, String ownerToken, long fencingToken, LockClient client,
			LockListener listener, LockKind kind) {
		this.key = key;
		this.kind = kind;
		this.name = name;
		this.resource = resource;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.client = client;
		this.listener = listener;
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

	/**
	 * Return whether this handle holds the given resource of the given store: the
	 * identity that re-entry matches on.
	 * @param store the lock store, compared by identity
	 * @param resource the key in the store, with its prefix
	 * @return whether it is this handle's lock
	 */
	boolean isLockOf(LockClient store, String resource) {
		return this.client == store && this.resource.equals(resource);
	}

	/**
	 * Return how this handle holds its key.
	 * @return the kind of hold
	 */
	LockKind kind() {
		return this.kind;
	}

	/**
	 * Return the name under which the store renews and checks this hold's lease.
	 * @return the lease key
	 */
	String leaseKey() {
		return this.kind.leaseKey(this.resource);
	}

	@Override
	public boolean isHeld() {
		try {
			return !isKnownNotHeld() && this.client.isHeld(leaseKey(), this.ownerToken);
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(this.key, ex);
		}
	}

	@Override
	public CompletionStage<Void> whenLost() {
		// A minimal stage, so that callers cannot complete it.
		return this.lost.minimalCompletionStage();
	}

	/**
	 * Run the given action before the release script, so that lease renewal is stopped
	 * before the release and cannot resurrect the lease afterwards.
	 * @param action the action to run once, before releasing
	 */
	void beforeRelease(Runnable action) {
		this.beforeRelease = action;
	}

	/**
	 * Run the given action once the release script deleted the lock, such as waking a
	 * waiter of this application that the store may not notify.
	 * @param action the action to run once, after a release that deleted the lock
	 */
	void afterRelease(Runnable action) {
		this.afterRelease = action;
	}

	/**
	 * Release the lock with the given action instead of the store's owner-checked
	 * release, such as one that may hand the lock to a waiter of this application.
	 * @param release the release, answering {@code true} when the lock was released (or
	 * handed over) and {@code false} when this owner no longer held it
	 */
	void releaseWith(BooleanSupplier release) {
		this.release = release;
	}

	/**
	 * Tell the listeners (and the observation of holding the lock) of a loss on the given
	 * executor, after {@link #whenLost()} completed, rather than on the thread that found
	 * it.
	 * @param lostListeners runs the {@code onLost} call of the listener
	 */
	void notifyLostOn(Executor lostListeners) {
		this.lostListeners = lostListeners;
	}

	/**
	 * Set the observation of holding this lock, stopped when the handle is closed.
	 * @param holding the started observation
	 */
	void observeHolding(Observation holding) {
		this.holding = holding;
	}

	/**
	 * Return the observation of holding this lock.
	 * @return the observation, a no-op one when not observed
	 */
	Observation holding() {
		return this.holding;
	}

	/**
	 * Make this handle one of the held locks of its template, until it is closed.
	 * @param request what was locked
	 * @param acquiredAt when, read from the renewer's clock
	 * @param lease its lease, if renewed
	 * @param untrack called once, when the handle is closed
	 */
	void track(LockRequest request, Instant acquiredAt, @Nullable Lease lease, Consumer<DefaultLockHandle> untrack) {
		this.tracking = new Tracking(request, acquiredAt, lease, untrack);
	}

	/**
	 * Describe this lock as held now.
	 * @param now the current instant of the renewer's clock
	 * @return the snapshot, or {@code null} if it is not tracked
	 */
	@Nullable HeldLock describe(Instant now) {
		Tracking tracking = this.tracking;
		if (tracking == null) {
			return null;
		}
		LockRequest request = tracking.request();
		Instant expiresAt = (tracking.lease() != null) ? tracking.lease().expiresAt()
				: tracking.acquiredAt().plus(request.ttl());
		Duration remaining = (!isKnownNotHeld() && now.isBefore(expiresAt)) ? Duration.between(now, expiresAt) : null;
		return new HeldLock(this.key, request.name(), this.fencingToken, tracking.acquiredAt(),
				Duration.between(tracking.acquiredAt(), now), remaining, this.holder.getName(), request.autoRenew(),
				request.mode(), request.permits());
	}

	/**
	 * Mark the lock as lost, once, and report it: {@link #whenLost()} completes first,
	 * then the listeners are told, on the executor given to
	 * {@link #notifyLostOn(Executor)}.
	 * @return {@code true} if the lock was held until now
	 */
	boolean markLost() {
		if (!this.state.compareAndSet(State.HELD, State.LOST)) {
			return false;
		}
		logger.warn("Lock '" + this.key + "'" + named() + " (fencing token " + this.fencingToken
				+ ") was lost while held: its lease ran out, the key was removed, or its renewal stopped");
		// The work under the lock hears of it first; no listener can delay that.
		this.lost.complete(null);
		LockEvent.Lost event = new LockEvent.Lost(this.key, this.name, this.fencingToken, this.holder);
		Observation holding = this.holding;
		this.lostListeners.execute(() -> {
			holding.event(LockObservationContext.LOST);
			this.listener.onLost(event);
		});
		return true;
	}

	/**
	 * Tell the work under this lock, just before someone other than that work releases
	 * it, that the lock no longer protects it: {@link #whenLost()} completes (on the
	 * calling thread, before the release), and a WARN names the lock and the reason.
	 * Listeners are not told of a loss: the release that follows reports to them. Does
	 * nothing for a lock released or found lost before.
	 * @param reason why it is released, completing "Lock 'k' is released ..."
	 */
	void releasedUnderWork(String reason) {
		if (this.state.get() != State.HELD || this.lost.isDone()) {
			return;
		}
		logger.warn("Lock '" + this.key + "'" + named() + " (fencing token " + this.fencingToken + ") is released "
				+ reason + " while its work may still run; whenLost() completes, the work is no longer protected");
		this.lost.complete(null);
	}

	/**
	 * Tell whether the lock is known to be lost or released, without asking the store.
	 * @return {@code true} once the lock was found lost or released
	 */
	boolean isKnownNotHeld() {
		return this.state.get() != State.HELD || isLeaseLost();
	}

	/**
	 * Tell whether the lock was found lost (and not released since).
	 * @return whether it is known lost
	 */
	boolean isKnownLost() {
		State state = this.state.get();
		return state == State.LOST || (state == State.HELD && isLeaseLost());
	}

	// The renewer marks a lost lease at once, before the callback that marks the handle
	// runs on another thread.
	private boolean isLeaseLost() {
		Tracking tracking = this.tracking;
		Lease lease = (tracking != null) ? tracking.lease() : null;
		return lease != null && lease.isLost();
	}

	private String named() {
		return (this.name.isEmpty() || this.name.equals(this.key)) ? "" : " (name '" + this.name + "')";
	}

	@Override
	public void close() {
		State previous = this.state.getAndSet(State.RELEASED);
		if (previous == State.RELEASED) {
			return;
		}
		Tracking tracking = this.tracking;
		if (tracking != null) {
			tracking.untrack().accept(this);
		}
		Runnable action = this.beforeRelease;
		if (action != null) {
			action.run();
		}
		Duration held = Duration.ofNanos(System.nanoTime() - this.acquiredAtNanos);
		Duration keep = (tracking != null) ? tracking.request().minHold().minus(held) : Duration.ZERO;
		boolean keepHeld = keep.toMillis() > 0;
		boolean released;
		try {
			// Before its minimum hold time, the lock is not deleted but left to expire
			// then: owner-checked, like a release, and without waking anyone early.
			BooleanSupplier release = this.release;
			released = keepHeld ? this.client.renew(leaseKey(), this.ownerToken, keep)
					: (release != null) ? release.getAsBoolean() : this.kind.release(this.resource, this.ownerToken);
		}
		catch (RuntimeException ex) {
			// Released or not, the lock ends here for this handle: it is never closed
			// again, and its lease is no longer renewed.
			this.listener
				.onReleaseFailed(new LockEvent.ReleaseFailed(this.key, this.name, this.fencingToken, held, ex));
			stopHolding("failed", ex);
			throw (ex instanceof LockBackendException backendFailure)
					? LockBackendException.forKey(this.key, backendFailure) : ex;
		}
		if (released) {
			Runnable after = this.afterRelease;
			if (!keepHeld && after != null) {
				after.run();
			}
			if (keepHeld && logger.isDebugEnabled()) {
				logger.debug("Lock '" + this.key + "' stays held for the remaining " + keep.toMillis()
						+ "ms of its minimum hold time");
			}
			this.listener.onReleased(new LockEvent.Released(this.key, this.name, this.fencingToken, held));
			stopHolding("released", null);
			return;
		}
		if (previous == State.HELD) {
			logger.warn("Lock '" + this.key + "' (fencing token " + this.fencingToken
					+ ") had expired before its release after " + held.toMillis()
					+ "ms; another owner may have held it meanwhile (a pause longer than the ttl, the key removed, "
					+ "or a ttl too short for a lock without auto-renew)");
		}
		// Also for a lock reported lost before: onLost told that it was gone, this ends
		// the acquisition.
		this.listener.onReleaseMismatch(new LockEvent.ReleaseMismatch(this.key, this.name, this.fencingToken, held));
		stopHolding("expired", null);
	}

	private void stopHolding(String outcome, @Nullable Throwable failure) {
		Observation holding = this.holding;
		if (holding.getContext() instanceof LockObservationContext context) {
			context.setOutcome(outcome);
		}
		if (failure != null) {
			holding.error(failure);
		}
		holding.stop();
	}

	@Override
	public String toString() {
		return "LockHandle[key='" + this.key + "', " + this.kind.describe() + ", fencingToken=" + this.fencingToken
				+ ", state=" + this.state.get() + "]";
	}

	private record Tracking(LockRequest request, Instant acquiredAt, @Nullable Lease lease,
			Consumer<DefaultLockHandle> untrack) {

	}

	private enum State {

		HELD, LOST, RELEASED

	}

}
