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
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.distlock.HeldLock;
import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.engine.ReactiveLockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.ReactiveLockClient;
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
 * fencing tokens, lease renewal and listeners work as in {@link LockTemplate}, whose
 * {@link LockEngine} it shares: key prefix, listeners, observations, the
 * {@link LeaseRenewer}, and the locks listed and released with the template's.
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

	private final ReactiveLockEngine engine;

	/**
	 * Create a template over the given store that is a view of the given engine, waiting
	 * on timers of the parallel scheduler: it shares the engine's settings, waiter, lease
	 * renewer and registries with the engine's other front doors.
	 * @param client the non-blocking lock store, over the same locks as the engine's
	 * @param engine the engine
	 */
	public ReactiveLockTemplate(ReactiveLockClient client, LockEngine engine) {
		this(client, engine, Schedulers.parallel());
	}

	/**
	 * Create a template as the constructor without a scheduler does, with the scheduler
	 * whose timers pace the attempts on a busy lock.
	 * @param client the non-blocking lock store, over the same locks as the engine's
	 * @param engine the engine
	 * @param timers the scheduler of the pauses between attempts
	 */
	public ReactiveLockTemplate(ReactiveLockClient client, LockEngine engine, Scheduler timers) {
		this.engine = new ReactiveLockEngine(client, engine, timers);
	}

	/**
	 * Run the action under a lock whose lease is renewed while held, from subscription
	 * until the action terminates or is cancelled.
	 * @param <T> the type of the action's value
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @param action the work to subscribe to while holding the lock
	 * @return a {@link Mono} of the action's outcome, or a
	 * {@link LockAcquisitionException} signal if the lock stayed busy (the action was not
	 * subscribed)
	 */
	public <T> Mono<T> execute(String key, Duration ttl, Duration waitTime, Mono<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return execute(LockRequest.of(key, ttl, waitTime), (lock) -> action);
	}

	/**
	 * Run the action, which gets the held lock, under the lock described by the request,
	 * as {@link #execute(LockRequest, Function, Function)} does with an error signal when
	 * the lock stays busy.
	 * @param <T> the type of the action's value
	 * @param request what to lock and how; not fair
	 * @param action makes the work to subscribe to while holding the lock
	 * @return a {@link Mono} of the action's outcome
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
	 * @throws IllegalArgumentException if the request is fair, for reading, for permits
	 * or with a minimum hold time
	 */
	public <T> Mono<T> execute(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Mono<T>> action,
			Function<? super LockAcquisitionException, ? extends @Nullable Mono<T>> whenBusy) {
		return this.engine.execute(request, action, whenBusy);
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
	 * @return a {@link Flux} of the action's values, or a
	 * {@link LockAcquisitionException} signal if the lock stayed busy (the action was not
	 * subscribed)
	 */
	public <T> Flux<T> executeMany(String key, Duration ttl, Duration waitTime, Flux<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return executeMany(LockRequest.of(key, ttl, waitTime), (lock) -> action);
	}

	/**
	 * Run the action, which gets the held lock, under the lock described by the request,
	 * as {@link #executeMany(LockRequest, Function, Function)} does with an error signal
	 * when the lock stays busy.
	 * @param <T> the type of the action's values
	 * @param request what to lock and how; not fair
	 * @param action makes the work to subscribe to while holding the lock
	 * @return a {@link Flux} of the action's values
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
	 * @throws IllegalArgumentException if the request is fair, for reading, for permits
	 * or with a minimum hold time
	 */
	public <T> Flux<T> executeMany(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Publisher<T>> action,
			Function<? super LockAcquisitionException, ? extends @Nullable Publisher<T>> whenBusy) {
		return this.engine.executeMany(request, action, whenBusy);
	}

	/**
	 * Return the locks held now through every front door of this template's engine (this
	 * template, its {@link LockTemplate}, leader election), for the {@code locks}
	 * endpoint and for shutdown.
	 * @return a snapshot of the held locks, oldest first
	 */
	public List<HeldLock> getHeldLocks() {
		return this.engine.getHeldLocks();
	}

	/**
	 * Release every lock held now through the front doors of this template's engine, as
	 * {@link io.distlock.LockAdministration#releaseHeldLocks()} does, off the subscribing
	 * thread.
	 * @return a {@link Mono} of how many locks were released, failed releases logged
	 */
	public Mono<Integer> releaseHeldLocks() {
		return this.engine.releaseHeldLocks();
	}

	/**
	 * Return the innermost lock held by the reactive code that subscribes, read from its
	 * Reactor context.
	 * @return a {@link Mono} of the held lock, or an empty one outside a locked action
	 */
	public static Mono<ReactiveLockHandle> currentLock() {
		return ReactiveLockEngine.currentLock();
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
		return ReactiveLockEngine.currentLock(key);
	}

}
