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
import java.util.concurrent.Executor;
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
import io.distlock.LockListener;
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.lease.Lease;
import io.distlock.reactive.ReactiveLockHandle;
import io.distlock.store.ReactiveLockClient;

/**
 * The {@link ReactiveLockHandle} of one acquisition by a {@code ReactiveLockTemplate}:
 * held until released or found lost, and released without blocking.
 *
 * <p>
 * As for the synchronous handle, every acquisition ends exactly once for the listener:
 * {@code onReleased}, {@code onReleaseMismatch} (also for a lock found lost before) or
 * {@code onReleaseFailed}. A loss takes effect ({@link #whenLost()} completes) before any
 * listener hears of it, on the listener threads, so that no listener can delay it.
 */
final class HeldReactiveLock implements ReactiveLockHandle, HeldLockRegistry.Entry {

	private static final Log logger = LogFactory.getLog(ReactiveLockHandle.class);

	// ObservationThreadLocalAccessor.KEY: where Micrometer's context propagation finds
	// the current observation in a Reactor context.
	private static final String OBSERVATION_KEY = "micrometer.observation";

	// How long a blocking release waits, as on shutdown: the command timeout bounds it
	// first.
	private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(30);

	private final LockRequest request;

	private final String resource;

	private final String ownerToken;

	private final long fencingToken;

	private final ReactiveLockClient client;

	private final Instant acquiredAt;

	private final Consumer<HeldReactiveLock> untrack;

	private final Consumer<String> released;

	private final Sinks.Empty<Void> lost = Sinks.empty();

	private final HoldState hold;

	private volatile boolean releasedInTime;

	HeldReactiveLock(LockRequest request, String resource, String ownerToken, long fencingToken,
			ReactiveLockClient client, LockListener listener, Instant acquiredAt, Consumer<HeldReactiveLock> untrack,
			Consumer<String> released) {
		this.request = request;
		this.resource = resource;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.client = client;
		this.acquiredAt = acquiredAt;
		this.untrack = untrack;
		this.released = released;
		this.hold = new HoldState(request.key(), request.name(), fencingToken, listener, logger,
				this.lost::tryEmitEmpty);
	}

	@Override
	public String key() {
		return this.request.key();
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
		this.hold.observeHolding(holding);
	}

	/**
	 * Put the observation of holding this lock into the context, as the current one.
	 */
	Context observedIn(Context context) {
		Observation holding = this.hold.holding();
		return holding.isNoop() ? context : context.put(OBSERVATION_KEY, holding);
	}

	HoldState hold() {
		return this.hold;
	}

	void renewedBy(Lease lease) {
		this.hold.lease().renewedBy(lease);
	}

	void notifyLostOn(Executor lostListeners) {
		this.hold.notifyLostOn(lostListeners);
	}

	@Override
	public HeldLock describe(Instant now) {
		return this.hold.describe(this.request, this.acquiredAt, now, LockMode.EXCLUSIVE, 1);
	}

	void markLost() {
		this.hold.markLost();
	}

	@Override
	public boolean isLockOf(Object store, String resource) {
		return this.client == store && this.resource.equals(resource);
	}

	@Override
	public void releaseNow() {
		release().block(RELEASE_TIMEOUT);
	}

	@Override
	public void releasedUnderWork(String reason) {
		this.hold.releasedUnderWork(reason);
	}

	/**
	 * Release the lock, once, owner-checked and without blocking, and report the end of
	 * the acquisition.
	 */
	Mono<Void> release() {
		return Mono.defer(() -> {
			HoldState.State previous = this.hold.beginRelease();
			if (previous == HoldState.State.RELEASED) {
				return Mono.empty();
			}
			this.untrack.accept(this);
			Lease lease = this.hold.lease().renewal();
			if (lease != null) {
				lease.cancel();
			}
			return this.client.release(this.resource, this.ownerToken)
				.defaultIfEmpty(false)
				.doOnNext((released) -> released(released, previous))
				.onErrorMap(this::releaseFailed)
				.doOnSuccess((done) -> this.hold.stopHolding(this.releasedInTime ? "released" : "mismatch", null))
				.doOnError((ex) -> this.hold.stopHolding("failed", ex))
				.then();
		});
	}

	private void released(boolean released, HoldState.State previous) {
		this.releasedInTime = released;
		Duration held = this.hold.held();
		if (released) {
			this.released.accept(this.resource);
			this.hold.released(held);
			return;
		}
		this.hold.releaseMismatched(previous, held);
	}

	private Throwable releaseFailed(Throwable ex) {
		this.hold.releaseFailed(this.hold.held(), ex);
		return (ex instanceof LockBackendException failure) ? LockBackendException.forKey(key(), failure) : ex;
	}

	@Override
	public String toString() {
		return "ReactiveLockHandle[key='" + key() + "', fencingToken=" + this.fencingToken + ", state="
				+ this.hold.state() + "]";
	}

}
