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

import java.util.Objects;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockEvent;
import io.distlock.LockListener;
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.observation.LockObservationContext;

/**
 * What every handle of one acquisition keeps and reports, blocking or reactive: held
 * until released or found lost, each end reported exactly once to the listener
 * ({@code onReleased}, {@code onReleaseMismatch}, also for a lock found lost before, or
 * {@code onReleaseFailed}), and a loss taking effect before any listener hears of it. Its
 * {@link HoldLease} tells when its lease runs out.
 */
final class HoldState {

	private final String key;

	private final String name;

	private final long fencingToken;

	private final LockListener listener;

	private final Log logger;

	private final Runnable signalLost;

	private final long acquiredAtNanos = System.nanoTime();

	private final Thread holder = Thread.currentThread();

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private final AtomicBoolean signalled = new AtomicBoolean();

	private final HoldLease lease = new HoldLease();

	private volatile Executor lostListeners = Runnable::run;

	private volatile Observation holding = Observation.NOOP;

	/**
	 * Create the state of a lock just taken.
	 * @param signalLost completes the handle's loss signal ({@code whenLost()})
	 */
	HoldState(String key, String name, long fencingToken, LockListener listener, Log logger, Runnable signalLost) {
		this.key = key;
		this.name = name;
		this.fencingToken = fencingToken;
		this.listener = listener;
		this.logger = logger;
		this.signalLost = signalLost;
	}

	State state() {
		return Objects.requireNonNull(this.state.get());
	}

	/**
	 * Return the lease of this hold: its renewal, if any, and when it runs out.
	 */
	HoldLease lease() {
		return this.lease;
	}

	void notifyLostOn(Executor lostListeners) {
		this.lostListeners = lostListeners;
	}

	void observeHolding(Observation holding) {
		this.holding = holding;
	}

	Observation holding() {
		return this.holding;
	}

	/**
	 * Mark the lock as lost, once, and report it: the loss signal first, then the
	 * listeners, on the executor given to {@link #notifyLostOn(Executor)}.
	 * @return {@code true} if the lock was held until now
	 */
	boolean markLost() {
		if (!this.state.compareAndSet(State.HELD, State.LOST)) {
			return false;
		}
		this.logger.warn("Lock '" + this.key + "'" + named() + " (fencing token " + this.fencingToken
				+ ") was lost while held: its lease ran out, the key was removed, or its renewal stopped");
		// The work under the lock hears of it first; no listener can delay that.
		signalLost();
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
	 * it, that the lock no longer protects it: the loss signal and a WARN. Does nothing
	 * for a lock released or found lost before.
	 */
	void releasedUnderWork(String reason) {
		if (this.state.get() != State.HELD || this.signalled.get()) {
			return;
		}
		this.logger.warn("Lock '" + this.key + "'" + named() + " (fencing token " + this.fencingToken + ") is released "
				+ reason + " while its work may still run; whenLost() completes, the work is no longer protected");
		signalLost();
	}

	private void signalLost() {
		if (this.signalled.compareAndSet(false, true)) {
			this.signalLost.run();
		}
	}

	boolean isKnownNotHeld() {
		return this.state.get() != State.HELD || isLeaseLost();
	}

	boolean isKnownLost() {
		State state = this.state.get();
		return state == State.LOST || (state == State.HELD && isLeaseLost());
	}

	// The renewer marks a lost lease at once, before the callback that marks the handle
	// runs on another thread.
	private boolean isLeaseLost() {
		return this.lease.isLost();
	}

	/**
	 * Begin the release, once.
	 * @return the state before, {@link State#RELEASED} when released before
	 */
	State beginRelease() {
		return this.state.getAndSet(State.RELEASED);
	}

	Duration held() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredAtNanos);
	}

	void released(Duration held) {
		this.listener.onReleased(new LockEvent.Released(this.key, this.name, this.fencingToken, held));
	}

	/**
	 * Report a release that found the lock no longer held by this owner.
	 */
	void releaseMismatched(State previous, Duration held) {
		if (previous == State.HELD) {
			this.logger.warn("Lock '" + this.key + "' (fencing token " + this.fencingToken
					+ ") had expired before its release after " + held.toMillis()
					+ "ms; another owner may have held it meanwhile (a pause longer than the ttl, the key removed, "
					+ "or a ttl too short for a lock without auto-renew)");
		}
		// Also for a lock reported lost before: onLost told that it was gone, this ends
		// the acquisition.
		this.listener.onReleaseMismatch(new LockEvent.ReleaseMismatch(this.key, this.name, this.fencingToken, held));
	}

	void releaseFailed(Duration held, Throwable failure) {
		this.listener
			.onReleaseFailed(new LockEvent.ReleaseFailed(this.key, this.name, this.fencingToken, held, failure));
	}

	/**
	 * Stop the observation of holding the lock with how it ended.
	 */
	void stopHolding(String outcome, @Nullable Throwable failure) {
		LockObservations.stop(this.holding, outcome, -1, failure);
	}

	/**
	 * Describe the lock as held now.
	 */
	HeldLock describe(LockRequest request, Instant acquiredAt, Instant now, LockMode mode, int permits) {
		Instant expiresAt = this.lease.expiresAt();
		if (expiresAt == null) {
			expiresAt = acquiredAt.plus(request.ttl());
		}
		Duration remaining = (!isKnownNotHeld() && now.isBefore(expiresAt)) ? Duration.between(now, expiresAt) : null;
		return new HeldLock(this.key, request.name(), this.fencingToken, acquiredAt, Duration.between(acquiredAt, now),
				remaining, this.holder.getName(), request.autoRenew(), mode, permits);
	}

	private String named() {
		return (this.name.isEmpty() || this.name.equals(this.key)) ? "" : " (name '" + this.name + "')";
	}

	/**
	 * Where one acquisition is.
	 */
	enum State {

		HELD, LOST, RELEASED

	}

}
