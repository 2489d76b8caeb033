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

package io.distlock.reactive;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.context.Context;

import io.distlock.HeldLock;
import io.distlock.LockBackendException;
import io.distlock.LockEvent;
import io.distlock.LockListener;
import io.distlock.LockRequest;
import io.distlock.core.ReactiveLockClient;
import io.distlock.lease.Lease;
import io.distlock.observation.LockObservationContext;

/**
 * The {@link ReactiveLockHandle} of one acquisition by a {@link ReactiveLockTemplate}:
 * held until released or found lost, and released without blocking.
 *
 * <p>
 * As for the synchronous handle, every acquisition ends exactly once for the listener:
 * {@code onReleased}, {@code onReleaseMismatch} (also for a lock found lost before) or
 * {@code onReleaseFailed}. A loss takes effect ({@link #whenLost()} completes) before any
 * listener hears of it, on the listener threads, so that no listener can delay it.
 */
final class HeldReactiveLock implements ReactiveLockHandle {

	private static final Log logger = LogFactory.getLog(ReactiveLockHandle.class);

	// ObservationThreadLocalAccessor.KEY: where Micrometer's context propagation finds
	// the current observation in a Reactor context.
	private static final String OBSERVATION_KEY = "micrometer.observation";

	private final String key;

	private final String resource;

	private final String ownerToken;

	private final long fencingToken;

	private final LockListener listener;

	private final long acquiredAtNanos = System.nanoTime();

	private final Thread holder = Thread.currentThread();

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private final Sinks.Empty<Void> lost = Sinks.empty();

	private volatile @Nullable Lease lease;

	private volatile Executor lostListeners = Runnable::run;

	private volatile Observation holding = Observation.NOOP;

	private volatile boolean releasedInTime;

	private final LockRequest request;

	private final Instant acquiredAt;

	private final Consumer<HeldReactiveLock> untrack;

	private final Consumer<String> released;

	HeldReactiveLock(LockRequest request, String resource, String ownerToken, long fencingToken, LockListener listener,
			Instant acquiredAt, Consumer<HeldReactiveLock> untrack, Consumer<String> released) {
		this.key = request.key();
		this.request = request;
		this.resource = resource;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.listener = listener;
		this.acquiredAt = acquiredAt;
		this.untrack = untrack;
		this.released = released;
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	@Override
	public Mono<Void> whenLost() {
		return this.lost.asMono();
	}

	String resource() {
		return this.resource;
	}

	String ownerToken() {
		return this.ownerToken;
	}

	void observeHolding(Observation holding) {
		this.holding = holding;
	}

	/**
	 * Put the observation of holding this lock in the given Reactor context, as the
	 * parent of the observations of the work under it.
	 */
	Context observedIn(Context context) {
		Observation holding = this.holding;
		return holding.isNoop() ? context : context.put(OBSERVATION_KEY, holding);
	}

	void renewedBy(Lease lease) {
		this.lease = lease;
	}

	/**
	 * Tell the listeners of a loss on the given executor, after {@link #whenLost()}
	 * completed.
	 */
	void notifyLostOn(Executor lostListeners) {
		this.lostListeners = lostListeners;
	}

	/**
	 * Describe this lock as held now.
	 * @param now the current instant of the renewer's clock
	 */
	HeldLock describe(Instant now) {
		Lease lease = this.lease;
		Instant expiresAt = (lease != null) ? lease.expiresAt() : this.acquiredAt.plus(this.request.ttl());
		Duration remaining = (!isKnownNotHeld() && now.isBefore(expiresAt)) ? Duration.between(now, expiresAt) : null;
		return new HeldLock(this.key, this.request.name(), this.fencingToken, this.acquiredAt,
				Duration.between(this.acquiredAt, now), remaining, this.holder.getName(), this.request.autoRenew());
	}

	boolean isKnownNotHeld() {
		return this.state.get() != State.HELD || isLeaseLost();
	}

	boolean isKnownLost() {
		State state = this.state.get();
		return state == State.LOST || (state == State.HELD && isLeaseLost());
	}

	// The renewer marks a lost lease at once, before the callback that marks this lock
	// runs on another thread.
	private boolean isLeaseLost() {
		Lease lease = this.lease;
		return lease != null && lease.isLost();
	}

	/**
	 * Mark the lock as lost, once, and report it; called by the lease renewer.
	 */
	void markLost() {
		if (!this.state.compareAndSet(State.HELD, State.LOST)) {
			return;
		}
		logger.warn("Lock '" + this.key + "' (fencing token " + this.fencingToken
				+ ") was lost while held: its lease ran out, the key was removed, or its renewal stopped");
		// The work under the lock hears of it first; no listener can delay that.
		this.lost.tryEmitEmpty();
		LockEvent.Lost event = new LockEvent.Lost(this.key, this.request.name(), this.fencingToken, this.holder);
		Observation holding = this.holding;
		this.lostListeners.execute(() -> {
			holding.event(LockObservationContext.LOST);
			this.listener.onLost(event);
		});
	}

	/**
	 * Tell the work under this lock, just before someone other than that work releases
	 * it, that the lock no longer protects it: {@link #whenLost()} completes, and a WARN
	 * names the lock and the reason. Listeners hear of the release that follows.
	 * @param reason why it is released, completing "Lock 'k' is released ..."
	 */
	void releasedUnderWork(String reason) {
		if (this.state.get() != State.HELD) {
			return;
		}
		logger.warn("Lock '" + this.key + "' (fencing token " + this.fencingToken + ") is released " + reason
				+ " while its work may still run; whenLost() completes, the work is no longer protected");
		this.lost.tryEmitEmpty();
	}

	/**
	 * Release the lock if this acquisition still holds it, once: stop its renewal first,
	 * so that no renewal resurrects the lease afterwards.
	 * @param client the store to release it in
	 * @return a {@link Mono} that completes when released, or signals the
	 * {@link LockBackendException} of a release that failed
	 */
	Mono<Void> release(ReactiveLockClient client) {
		return Mono.defer(() -> {
			State previous = this.state.getAndSet(State.RELEASED);
			if (previous == State.RELEASED) {
				return Mono.empty();
			}
			this.untrack.accept(this);
			Lease lease = this.lease;
			if (lease != null) {
				lease.cancel();
			}
			return client.release(this.resource, this.ownerToken)
				.defaultIfEmpty(false)
				.doOnNext((released) -> released(released, previous))
				.onErrorMap((ex) -> releaseFailed(ex))
				.doOnSuccess((done) -> ReactiveLockTemplate.stop(this.holding,
						(this.state.get() == State.RELEASED && this.releasedInTime) ? "released" : "expired", -1, null))
				.doOnError((ex) -> ReactiveLockTemplate.stop(this.holding, "failed", -1, ex))
				.then();
		});
	}

	private void released(boolean released, State previous) {
		this.releasedInTime = released;
		Duration held = Duration.ofNanos(System.nanoTime() - this.acquiredAtNanos);
		if (released) {
			this.released.accept(this.resource);
			this.listener.onReleased(new LockEvent.Released(this.key, this.request.name(), this.fencingToken, held));
			return;
		}
		if (previous == State.HELD) {
			logger.warn("Lock '" + this.key + "' (fencing token " + this.fencingToken
					+ ") had expired before its release after " + held.toMillis()
					+ "ms; another owner may have held it meanwhile (a pause longer than the ttl, the key removed, "
					+ "or a ttl too short for a lock without auto-renew)");
		}
		this.listener
			.onReleaseMismatch(new LockEvent.ReleaseMismatch(this.key, this.request.name(), this.fencingToken, held));
	}

	private Throwable releaseFailed(Throwable ex) {
		this.listener.onReleaseFailed(new LockEvent.ReleaseFailed(this.key, this.request.name(), this.fencingToken,
				Duration.ofNanos(System.nanoTime() - this.acquiredAtNanos), ex));
		return (ex instanceof LockBackendException failure) ? LockBackendException.forKey(this.key, failure) : ex;
	}

	@Override
	public String toString() {
		return "ReactiveLockHandle[key='" + this.key + "', fencingToken=" + this.fencingToken + ", state="
				+ this.state.get() + "]";
	}

	private enum State {

		HELD, LOST, RELEASED

	}

}
