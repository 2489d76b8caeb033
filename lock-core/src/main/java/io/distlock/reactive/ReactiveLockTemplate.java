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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

import io.distlock.HeldLock;
import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockEvent;
import io.distlock.LockListener;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.annotation.LockMode;
import io.distlock.core.AcquireResult;
import io.distlock.core.ReactiveLockClient;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationContext;
import io.distlock.observation.LockObservationConvention;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * The reactive entry point: run a {@link Mono} or {@link Flux} under a distributed lock,
 * held from its subscription until it completes, fails or is cancelled.
 *
 * <pre class="code">
 * Mono&lt;Order&gt; paid = reactiveLockTemplate.execute("order:42", Duration.ofSeconds(10),
 *         Duration.ofSeconds(5), orders.pay(42));
 * </pre>
 *
 * <p>
 * Nothing is locked until subscription, and each subscription takes the lock anew. The
 * lock is taken without blocking any thread: attempts are non-blocking Redis calls, and a
 * busy lock is waited for on timers, woken early by release notifications through the
 * same {@link LockWaiter} as {@link LockTemplate}'s waiting threads. Keys, key prefix,
 * fencing tokens, lease renewal and listeners work as in {@link LockTemplate}: the
 * {@link LeaseRenewer} renews the lease while the action runs, on threads of its own.
 * <p>
 * Release policy: the lock is released when the action terminates, before its completion
 * (or error) reaches the subscriber, so a subscriber that sees the end finds the lock
 * free; on cancellation it is released as well. A failure to release never hides the
 * action's own error (it is added as suppressed), and after an action that completed it
 * is logged, since the work is done and the lock expires after its ttl. A lock that stays
 * busy for the whole wait time signals {@link LockAcquisitionException} (or what the busy
 * callback returns), and Redis that cannot be reached {@link LockBackendException}:
 * failures are signals, never thrown.
 * <p>
 * The action sees its lock in the Reactor context: {@link #currentLock()}. A nested
 * {@code execute} of the same lock inside the action re-enters that lock instead of
 * waiting for itself: the same key in the same store (this template's
 * {@link ReactiveLockClient} instance) under the same key prefix, through this template
 * or another one on that store and prefix. Nested work on a template of another store or
 * prefix takes its own lock. Fair locks are not available here.
 */
public class ReactiveLockTemplate {

	private static final Log logger = LogFactory.getLog(ReactiveLockTemplate.class);

	private final ReactiveLockClient client;

	private final LeaseRenewer renewer;

	private final LockWaiter waiter;

	private final ReactiveLockAcquirer acquirer;

	private final OwnerTokens ownerTokens = new OwnerTokens();

	private final Set<HeldReactiveLock> heldLocks = ConcurrentHashMap.newKeySet();

	private String keyPrefix = LockTemplate.DEFAULT_KEY_PREFIX;

	private LockListener listener = new LockListener() {
	};

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	private @Nullable LockObservationConvention observationConvention;

	private final LockObservationConvention defaultObservationConvention = new DefaultLockObservationConvention();

	/**
	 * Create a template over the given store, waiting with the given waiter (pass the one
	 * that release notifications signal) on timers of the parallel scheduler, and
	 * renewing leases with the given renewer.
	 * @param client the non-blocking lock store
	 * @param waiter the waiter that release notifications signal
	 * @param renewer the watchdog that renews the leases of auto-renewed locks
	 */
	public ReactiveLockTemplate(ReactiveLockClient client, LockWaiter waiter, LeaseRenewer renewer) {
		this(client, waiter, renewer, Schedulers.parallel());
	}

	/**
	 * Create a template as
	 * {@link #ReactiveLockTemplate(ReactiveLockClient, LockWaiter, LeaseRenewer)} does,
	 * with the scheduler whose timers pace the attempts on a busy lock.
	 * @param client the non-blocking lock store
	 * @param waiter the waiter that release notifications signal
	 * @param renewer the watchdog that renews the leases of auto-renewed locks
	 * @param timers the scheduler of the pauses between attempts
	 */
	public ReactiveLockTemplate(ReactiveLockClient client, LockWaiter waiter, LeaseRenewer renewer, Scheduler timers) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		Assert.notNull(renewer, "'renewer' must not be null");
		Assert.notNull(timers, "'timers' must not be null");
		this.client = client;
		this.waiter = waiter;
		this.renewer = renewer;
		this.acquirer = new ReactiveLockAcquirer(client, waiter, timers);
	}

	/**
	 * Set the prefix put before every key in the store;
	 * {@value LockTemplate#DEFAULT_KEY_PREFIX} by default, as for {@link LockTemplate}.
	 * @param keyPrefix the key prefix, may be empty; no control characters, as in keys
	 * @throws IllegalArgumentException if the prefix is null or holds a control character
	 */
	public void setKeyPrefix(String keyPrefix) {
		Assert.isTrue(keyPrefix != null, "'keyPrefix' must not be null");
		Assert.isTrue(keyPrefix.chars().noneMatch(Character::isISOControl),
				() -> "'keyPrefix' must not contain control characters but was '"
						+ keyPrefix.replaceAll("\\p{Cntrl}", "?") + "'");
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Set listeners to tell about lock events.
	 * @param listeners the listeners
	 */
	public void setLockListeners(List<LockListener> listeners) {
		Assert.notNull(listeners, "'listeners' must not be null");
		this.listener = LockListener.composite(new ArrayList<>(listeners));
	}

	/**
	 * Set the registry to record observations of waiting for locks and of holding them
	 * with, as {@link LockTemplate#setObservationRegistry} does; the observation of
	 * holding a lock is the parent of the action's (through the Reactor context).
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		Assert.notNull(observationRegistry, "'observationRegistry' must not be null");
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Set the convention that names lock observations and their tags.
	 * @param observationConvention the convention, or {@code null} for the default
	 */
	public void setObservationConvention(@Nullable LockObservationConvention observationConvention) {
		this.observationConvention = observationConvention;
	}

	/**
	 * Run the action under a lock whose lease is renewed while held, from subscription
	 * until the action terminates or is cancelled.
	 * @param <T> the type of the action's value
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @param action the work to subscribe to while holding the lock
	 * @return a {@link Mono} of the action's outcome, or an error signal of
	 * {@link LockAcquisitionException} if the lock stayed busy (the action was not
	 * subscribed)
	 * @throws IllegalArgumentException if an argument is invalid
	 */
	public <T> Mono<T> execute(String key, Duration ttl, Duration waitTime, Mono<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return execute(LockRequest.of(key, ttl, waitTime), (lock) -> action);
	}

	/**
	 * Run the action under the lock described by the request, as
	 * {@link #execute(String, Duration, Duration, Mono)} does; the action gets the held
	 * lock, for its fencing token.
	 * @param <T> the type of the action's value
	 * @param request what to lock and how; not fair
	 * @param action makes the work to subscribe to while holding the lock
	 * @return a {@link Mono} of the action's outcome, or an error signal of
	 * {@link LockAcquisitionException} if the lock stayed busy
	 * @throws IllegalArgumentException if the request is fair
	 */
	public <T> Mono<T> execute(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Mono<T>> action) {
		return execute(request, action, Mono::error);
	}

	/**
	 * Run the action under the lock described by the request, or, when the lock stays
	 * busy for the whole wait time, subscribe to what the busy callback returns instead.
	 * @param <T> the type of the value
	 * @param request what to lock and how; not fair
	 * @param action makes the work to subscribe to while holding the lock
	 * @param whenBusy answers for a lock that stayed busy
	 * @return a {@link Mono} of the action's outcome, or of the busy callback's
	 * @throws IllegalArgumentException if the request is fair
	 */
	public <T> Mono<T> execute(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Mono<T>> action,
			Function<? super LockAcquisitionException, ? extends @Nullable Mono<T>> whenBusy) {
		assertArguments(request, action, whenBusy);
		return Mono.deferContextual((context) -> {
			HeldLocks held = HeldLocks.in(context);
			HeldReactiveLock outer = held.find(this.client, this.keyPrefix + request.key());
			if (outer != null) {
				return reentered(request, outer).then(Mono.defer(() -> orEmpty(action.apply(outer))));
			}
			return Mono.usingWhen(acquire(request),
					(outcome) -> (outcome instanceof HeldReactiveLock lock)
							? orEmpty(action.apply(lock))
								.contextWrite((ctx) -> lock.observedIn(held.with(this.client, lock).into(ctx)))
							: orEmpty(whenBusy.apply((LockAcquisitionException) outcome)),
					this::releaseAfterSuccess, this::releaseAfterFailure, this::releaseAfterCancel);
		});
	}

	/**
	 * Run the action under a lock whose lease is renewed while held, from subscription
	 * until the action terminates or is cancelled; its values pass through while the lock
	 * is held.
	 * @param <T> the type of the action's values
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @param action the work to subscribe to while holding the lock
	 * @return a {@link Flux} of the action's values, or an error signal of
	 * {@link LockAcquisitionException} if the lock stayed busy (the action was not
	 * subscribed)
	 * @throws IllegalArgumentException if an argument is invalid
	 */
	public <T> Flux<T> executeMany(String key, Duration ttl, Duration waitTime, Flux<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return executeMany(LockRequest.of(key, ttl, waitTime), (lock) -> action);
	}

	/**
	 * Run the action under the lock described by the request, as
	 * {@link #executeMany(String, Duration, Duration, Flux)} does; the action gets the
	 * held lock, for its fencing token.
	 * @param <T> the type of the action's values
	 * @param request what to lock and how; not fair
	 * @param action makes the work to subscribe to while holding the lock
	 * @return a {@link Flux} of the action's values, or an error signal of
	 * {@link LockAcquisitionException} if the lock stayed busy
	 * @throws IllegalArgumentException if the request is fair
	 */
	public <T> Flux<T> executeMany(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Publisher<T>> action) {
		return executeMany(request, action, Flux::error);
	}

	/**
	 * Run the action under the lock described by the request, or, when the lock stays
	 * busy for the whole wait time, subscribe to what the busy callback returns instead.
	 * @param <T> the type of the values
	 * @param request what to lock and how; not fair
	 * @param action makes the work to subscribe to while holding the lock
	 * @param whenBusy answers for a lock that stayed busy
	 * @return a {@link Flux} of the action's values, or of the busy callback's
	 * @throws IllegalArgumentException if the request is fair
	 */
	public <T> Flux<T> executeMany(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Publisher<T>> action,
			Function<? super LockAcquisitionException, ? extends @Nullable Publisher<T>> whenBusy) {
		assertArguments(request, action, whenBusy);
		return Flux.deferContextual((context) -> {
			HeldLocks held = HeldLocks.in(context);
			HeldReactiveLock outer = held.find(this.client, this.keyPrefix + request.key());
			if (outer != null) {
				return reentered(request, outer).thenMany(Flux.defer(() -> orEmpty(action.apply(outer))));
			}
			return Flux.usingWhen(acquire(request),
					(outcome) -> (outcome instanceof HeldReactiveLock lock)
							? orEmpty(action.apply(lock))
								.contextWrite((ctx) -> lock.observedIn(held.with(this.client, lock).into(ctx)))
							: orEmpty(whenBusy.apply((LockAcquisitionException) outcome)),
					this::releaseAfterSuccess, this::releaseAfterFailure, this::releaseAfterCancel);
		});
	}

	/**
	 * Return the locks this template holds now, for the {@code locks} endpoint and for
	 * shutdown.
	 * @return a snapshot of the held locks, oldest first
	 */
	public List<HeldLock> getHeldLocks() {
		Instant now = this.renewer.getClock().instant();
		List<HeldLock> held = new ArrayList<>();
		for (HeldReactiveLock lock : this.heldLocks) {
			held.add(lock.describe(now));
		}
		held.sort(Comparator.comparing(HeldLock::acquiredAt));
		return held;
	}

	/**
	 * Release every lock this template holds now, owner-checked, as on shutdown: the
	 * reactive work still running under one of them is no longer protected by it, and is
	 * told so first: the {@link ReactiveLockHandle#whenLost()} of each lock completes
	 * before its release, and a WARN names it.
	 * @return a {@link Mono} of how many locks were released, failed releases logged
	 */
	public Mono<Integer> releaseHeldLocks() {
		return Flux.fromIterable(List.copyOf(this.heldLocks))
			.doOnNext((lock) -> lock.releasedUnderWork("by releaseHeldLocks() (shutdown)"))
			.flatMap((lock) -> lock.release(this.client).thenReturn(1).onErrorResume((ex) -> {
				logger.warn("Could not release lock '" + lock.key() + "'; it expires after its ttl", ex);
				return Mono.just(0);
			}))
			.reduce(0, Integer::sum);
	}

	/**
	 * Return the innermost lock held by the reactive code that subscribes, read from its
	 * Reactor context.
	 * @return a {@link Mono} of the held lock, or an empty one outside a locked action
	 */
	public static Mono<ReactiveLockHandle> currentLock() {
		return Mono.deferContextual((context) -> Mono.justOrEmpty(HeldLocks.in(context).innermost()));
	}

	/**
	 * Return the innermost lock of the given key held by the reactive code that
	 * subscribes, read from its Reactor context, whatever its store and key prefix.
	 * @param key the lock key, as given to {@code execute} (without the key prefix)
	 * @return a {@link Mono} of the held lock, or an empty one if no enclosing action
	 * holds that key
	 */
	public static Mono<ReactiveLockHandle> currentLock(String key) {
		Assert.notNull(key, "'key' must not be null");
		return Mono.deferContextual((context) -> Mono.justOrEmpty(HeldLocks.in(context).findKey(key)));
	}

	private static void assertArguments(LockRequest request, Object action, Object whenBusy) {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(action, "'action' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		Assert.isTrue(!request.fair(), () -> "Lock '" + request.key()
				+ "' was requested fair, but ReactiveLockTemplate takes no locks in arrival order");
		Assert.isTrue(request.mode() != LockMode.READ && request.permits() == 1,
				() -> "Lock '" + request.key() + "' was requested as "
						+ ((request.permits() > 1) ? request.permits() + " permits" : "a READ lock")
						+ ", but ReactiveLockTemplate takes exclusive (and write) locks only");
		Assert.isTrue(request.minHold().isZero(), () -> "Lock '" + request.key()
				+ "' was requested with a minHold, which ReactiveLockTemplate does not keep");
	}

	private static Mono<Void> reentered(LockRequest request, HeldReactiveLock outer) {
		// As in LockTemplate: re-entering a lock that is gone would run the nested work
		// as if it held it, so it fails as work that got no lock.
		if (outer.isKnownNotHeld()) {
			String why = outer.isKnownLost() ? "its outer action lost it (it was reported lost)"
					: "its outer action released it already";
			return Mono.error(new LockAcquisitionException(request.key(), Duration.ZERO,
					"Lock '" + request.key() + "' cannot be re-entered: " + why + "; the nested work did not run",
					null));
		}
		return Mono.empty();
	}

	/**
	 * Take the lock: a {@link Mono} of the held lock, or of the
	 * {@link LockAcquisitionException} for a lock that stayed busy.
	 */
	private Mono<Object> acquire(LockRequest request) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			String resource = this.keyPrefix + request.key();
			String owner = this.ownerTokens.next();
			Observation acquiring = observation(LockObservationContext.Phase.ACQUIRE, request).start();
			return this.acquirer.acquire(resource, owner, request.ttl(), request.waitTime())
				.onErrorMap(LockBackendException.class, (ex) -> LockBackendException.forKey(request.key(), ex))
				.map((attempt) -> outcome(request, resource, owner, attempt, start, acquiring))
				.doOnError((ex) -> stop(acquiring, "failed", -1, ex))
				.doOnCancel(() -> stop(acquiring, "cancelled", -1, null));
		});
	}

	private Object outcome(LockRequest request, String resource, String owner, ReactiveLockAcquirer.Attempt attempt,
			long start, Observation acquiring) {
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		if (!(attempt.result() instanceof AcquireResult.Acquired acquired)) {
			stop(acquiring, "busy", -1, null);
			this.listener.onNotAcquired(new LockEvent.NotAcquired(request.key(), request.name(), waited));
			return new LockAcquisitionException(request.key(), waited);
		}
		// As LockTemplate does: a waiter of this application that the store does not
		// notify of this release is woken here.
		HeldReactiveLock lock = new HeldReactiveLock(request, resource, owner, acquired.fencingToken(), this.listener,
				this.renewer.getClock().instant(), this.heldLocks::remove, this.waiter::signal);
		if (request.autoRenew()) {
			try {
				Instant startedAt = this.renewer.getClock()
					.instant()
					.minusNanos(System.nanoTime() - attempt.sentAtNanos());
				lock.notifyLostOn((notification) -> this.renewer.notifyListeners(request.key(), notification));
				lock.renewedBy(
						this.renewer.registerDetached(resource, owner, request.ttl(), startedAt, lock::markLost));
			}
			catch (RuntimeException ex) {
				// Not renewed, the lease would run out under the action: give the lock
				// back.
				this.client.release(resource, owner)
					.subscribe(null,
							(releaseFailure) -> logger.debug(
									"Could not give back lock '" + request.key()
											+ "' that no renewal could be registered for; it expires after its ttl",
									releaseFailure));
				throw ex;
			}
		}
		this.heldLocks.add(lock);
		stop(acquiring, "acquired", acquired.fencingToken(), null);
		Observation holding = observation(LockObservationContext.Phase.HOLD, request);
		if (holding.getContext() instanceof LockObservationContext context) {
			context.setFencingToken(acquired.fencingToken());
		}
		lock.observeHolding(holding.start());
		this.listener
			.onAcquired(new LockEvent.Acquired(request.key(), request.name(), acquired.fencingToken(), waited));
		return lock;
	}

	private Observation observation(LockObservationContext.Phase phase, LockRequest request) {
		return Observation.createNotStarted(this.observationConvention, this.defaultObservationConvention,
				() -> new LockObservationContext(phase, request.key(), request.name()), this.observationRegistry);
	}

	static void stop(Observation observation, String outcome, long fencingToken, @Nullable Throwable failure) {
		if (observation.isNoop()) {
			return;
		}
		if (observation.getContext() instanceof LockObservationContext context) {
			context.setOutcome(outcome);
			if (fencingToken >= 0) {
				context.setFencingToken(fencingToken);
			}
		}
		if (failure != null) {
			observation.error(failure);
		}
		observation.stop();
	}

	private Mono<Void> releaseAfterSuccess(Object outcome) {
		if (!(outcome instanceof HeldReactiveLock lock)) {
			return Mono.empty();
		}
		return lock.release(this.client).onErrorResume((ex) -> {
			// The work is done: failing now would invite the subscriber to run it again.
			logger.warn("Could not release lock '" + lock.key()
					+ "' after its reactive work completed; it expires after its ttl", ex);
			return Mono.empty();
		});
	}

	private Mono<Void> releaseAfterFailure(Object outcome, Throwable failure) {
		if (!(outcome instanceof HeldReactiveLock lock)) {
			return Mono.empty();
		}
		return lock.release(this.client).onErrorResume((ex) -> {
			failure.addSuppressed(ex);
			return Mono.empty();
		});
	}

	private Mono<Void> releaseAfterCancel(Object outcome) {
		if (!(outcome instanceof HeldReactiveLock lock)) {
			return Mono.empty();
		}
		return lock.release(this.client).onErrorResume((ex) -> {
			logger.warn("Could not release lock '" + lock.key()
					+ "' after its reactive work was cancelled; it expires after its ttl", ex);
			return Mono.empty();
		});
	}

	private static <T> Mono<T> orEmpty(@Nullable Mono<T> mono) {
		return (mono != null) ? mono : Mono.empty();
	}

	private static <T> Flux<T> orEmpty(@Nullable Publisher<T> publisher) {
		return (publisher != null) ? Flux.from(publisher) : Flux.empty();
	}

	/**
	 * The locks held by enclosing actions, kept in the Reactor context, innermost last,
	 * each with the store it was taken from.
	 */
	private record HeldLocks(List<Bound> locks) {

		private static final Class<HeldLocks> CONTEXT_KEY = HeldLocks.class;

		private static final HeldLocks NONE = new HeldLocks(List.of());

		static HeldLocks in(ContextView context) {
			return context.getOrDefault(CONTEXT_KEY, NONE);
		}

		/**
		 * Find the lock that nested work re-enters: the same resource of the same store.
		 */
		@Nullable HeldReactiveLock find(ReactiveLockClient store, String resource) {
			for (int i = this.locks.size() - 1; i >= 0; i--) {
				Bound bound = this.locks.get(i);
				if (bound.store() == store && bound.lock().resource().equals(resource)) {
					return bound.lock();
				}
			}
			return null;
		}

		@Nullable HeldReactiveLock findKey(String key) {
			for (int i = this.locks.size() - 1; i >= 0; i--) {
				if (this.locks.get(i).lock().key().equals(key)) {
					return this.locks.get(i).lock();
				}
			}
			return null;
		}

		@Nullable HeldReactiveLock innermost() {
			return this.locks.isEmpty() ? null : this.locks.get(this.locks.size() - 1).lock();
		}

		HeldLocks with(ReactiveLockClient store, HeldReactiveLock lock) {
			List<Bound> locks = new ArrayList<>(this.locks);
			locks.add(new Bound(store, lock));
			return new HeldLocks(List.copyOf(locks));
		}

		reactor.util.context.Context into(reactor.util.context.Context context) {
			return context.put(CONTEXT_KEY, this);
		}

	}

	/**
	 * A held lock and the store it was taken from, compared by identity.
	 */
	private record Bound(ReactiveLockClient store, HeldReactiveLock lock) {

	}

}
