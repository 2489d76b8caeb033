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
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.reactive.ReactiveLockHandle;
import io.distlock.store.ReactiveLockClient;

import org.springframework.util.Assert;

/**
 * The engine under {@code ReactiveLockTemplate}: the reactive acquisition pipeline,
 * re-entry through the Reactor context, and the release policy of reactive work, on the
 * same settings and held-lock registry as the blocking front doors. It checks that a
 * request is one it can serve: exclusive or write, not fair, without a minimum hold time.
 *
 * <p>
 * For the front doors of distlock only; applications use {@code ReactiveLockTemplate}.
 */
public final class ReactiveLockEngine {

	private final ReactivePipeline acquisition;

	private final EngineParts parts;

	/**
	 * Create the reactive pipeline of the given engine over a reactive store of the same
	 * locks: it shares the engine's settings, registries, waiter and lease renewer.
	 * @param client the reactive lock store
	 * @param engine the engine
	 * @param timers the scheduler of backoff timers
	 */
	public ReactiveLockEngine(ReactiveLockClient client, LockEngine engine, Scheduler timers) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(engine, "'engine' must not be null");
		Assert.notNull(timers, "'timers' must not be null");
		this.parts = engine.parts();
		this.acquisition = new ReactivePipeline(client, this.parts, timers);
	}

	/**
	 * Run the action under the lock of the request, or re-enter the lock its pipeline
	 * holds already.
	 * @param <T> the type of the result
	 * @param request what to lock and how
	 * @param action the work under the lock
	 * @param whenBusy what to answer when the lock stayed busy
	 * @return the work's result, after the release
	 */
	public <T> Mono<T> execute(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Mono<T>> action,
			Function<? super LockAcquisitionException, ? extends @Nullable Mono<T>> whenBusy) {
		// One pipeline for both: the value waits for the completion, which comes after
		// the release, so a subscriber that sees the value finds the lock free.
		return executeMany(request, action::apply, whenBusy::apply).singleOrEmpty();
	}

	/**
	 * Run the action's elements under the lock of the request, or re-enter the lock its
	 * pipeline holds already.
	 * @param <T> the type of the elements
	 * @param request what to lock and how
	 * @param action the work under the lock
	 * @param whenBusy what to answer when the lock stayed busy
	 * @return the work's elements, completed after the release
	 */
	public <T> Flux<T> executeMany(LockRequest request,
			Function<? super ReactiveLockHandle, ? extends @Nullable Publisher<T>> action,
			Function<? super LockAcquisitionException, ? extends @Nullable Publisher<T>> whenBusy) {
		assertArguments(request, action, whenBusy);
		ReactivePipeline acquisition = this.acquisition;
		return Flux.deferContextual((context) -> {
			ReactiveBoundLocks held = ReactiveBoundLocks.in(context);
			HeldReactiveLock outer = held.find(acquisition.client(), acquisition.resource(request.key()));
			if (outer != null) {
				return reentered(request, outer).thenMany(Flux.defer(() -> orEmpty(action.apply(outer))));
			}
			return Flux.usingWhen(acquisition.acquire(request),
					(outcome) -> (outcome instanceof HeldReactiveLock lock)
							? orEmpty(action.apply(lock))
								.contextWrite((ctx) -> held.bind(acquisition.client(), lock, ctx))
							: orEmpty(whenBusy.apply((LockAcquisitionException) outcome)),
					acquisition::releaseAfterSuccess, acquisition::releaseAfterFailure,
					acquisition::releaseAfterCancel);
		});
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
		RenewedTtlCheck.check(request);
	}

	private static Mono<Void> reentered(LockRequest request, HeldReactiveLock outer) {
		// As in the blocking pipeline: re-entering a lock that is gone, or whose lease
		// ran
		// out, would run the nested work as if it held it, so it fails as work that got
		// no lock. Checked on subscription, when the nested work would start.
		return Mono.fromRunnable(() -> Reentry.assertReenterable(outer.hold(), request.key(), "action", "work"));
	}

	/**
	 * Return the locks held through every front door of this engine's settings.
	 * @return a snapshot, oldest first
	 */
	public List<HeldLock> getHeldLocks() {
		return this.parts.heldLocks().describe(this.acquisition.renewer().getClock().instant());
	}

	/**
	 * Release every lock held through the front doors of this engine's settings.
	 * @return how many were released
	 */
	public Mono<Integer> releaseHeldLocks() {
		return Mono.fromCallable(() -> this.parts.heldLocks().releaseAll("by releaseHeldLocks() (shutdown)"))
			.subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Return the innermost lock held by the subscribing pipeline.
	 * @return the lock, or empty outside locked work
	 */
	public static Mono<ReactiveLockHandle> currentLock() {
		return Mono.deferContextual((context) -> Mono.justOrEmpty(ReactiveBoundLocks.in(context).innermost()));
	}

	/**
	 * Return the innermost lock of the given key held by the subscribing pipeline.
	 * @param key the lock key
	 * @return the lock, or empty if the pipeline holds none of that key
	 */
	public static Mono<ReactiveLockHandle> currentLock(String key) {
		return Mono.deferContextual((context) -> Mono.justOrEmpty(ReactiveBoundLocks.in(context).findKey(key)));
	}

	private static <T> Flux<T> orEmpty(@Nullable Publisher<T> publisher) {
		return (publisher != null) ? Flux.from(publisher) : Flux.empty();
	}

}