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
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.annotation.LockMode;
import io.distlock.core.AcquireResult;
import io.distlock.core.FairLockClient;
import io.distlock.core.InspectableLockClient;
import io.distlock.lease.Lease;
import io.distlock.lease.LeaseRenewer;
import io.distlock.core.LockClient;
import io.distlock.core.LockState;
import io.distlock.waiting.LockWaiter;
import io.distlock.core.PermitLockClient;
import io.distlock.core.ReadWriteLockClient;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationContext;
import io.distlock.observation.LockObservationConvention;

import org.springframework.util.Assert;

/**
 * The programmatic entry point: take a distributed lock, run code under it, release it.
 *
 * <pre class="code">
 * lockTemplate.execute(LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO),
 *         (lock) -&gt; storage.write(order, lock.fencingToken()));
 * </pre>
 *
 * <p>
 * Keys are given without the key prefix, which this template adds. Every acquisition gets
 * its own unguessable owner token, so only that acquisition can renew or release the
 * lock. Waiting for a busy lock parks the thread until the holder releases it (when
 * release notifications are available), its lease runs out, or a bounded backoff passes.
 * {@link LockRequest#withFair(boolean) Fair} requests get the lock in arrival order, on a
 * store that is a {@link FairLockClient}.
 * <p>
 * The {@code execute} methods hold one release policy, which {@code @DistributedLocked}
 * methods share: the lock is released when the code ends, also when it throws; a failure
 * to release never hides the code's own exception but is added to it as suppressed; after
 * code that completed, a failure to release is logged and the result returned, since the
 * work is done and the lock expires after its ttl anyway. While the code runs, its lock
 * is {@link LockContext bound} to the thread, and a nested {@code execute} of the same
 * lock on that thread re-enters it: the same key in the same store (this template's
 * {@link LockClient} instance) under the same key prefix, through this template or
 * another one on that store and prefix. A nested call on a template of another store or
 * prefix takes its own lock, and waits for it or fails if another holder has it.
 * Re-entering a lock already found lost throws a {@link LockAcquisitionException} instead
 * of running the nested code.
 * <p>
 * The {@code executeAsync} methods hold the policy for asynchronous work, which
 * {@code @DistributedLocked} methods returning a {@link CompletionStage} share: the lock
 * is released when the work's stage completes, not when the code that started it returns.
 *
 * @see LockHandle
 * @see LockClient
 */
public class LockTemplate {

	/**
	 * The default key prefix, so that lock keys stand apart from the application's data.
	 */
	public static final String DEFAULT_KEY_PREFIX = "lock:";

	private static final Log logger = LogFactory.getLog(LockTemplate.class);

	private final LockClient client;

	private final LockWaiter waiter;

	private final LockAcquirer acquirer;

	private final MultiKeyAcquirer multiKeyAcquirer;

	private final LocalQueues localQueues;

	private final AsyncLockExecution async = new AsyncLockExecution((request, start) -> acquire(request, start, true));

	private final LockCounters counters = new LockCounters();

	private final LockStatistics statistics = new LockStatistics(this.counters);

	private final Set<DefaultLockHandle> heldLocks = ConcurrentHashMap.newKeySet();

	private LeaseRenewer renewer;

	private String keyPrefix = DEFAULT_KEY_PREFIX;

	private LockListener listener = this.counters;

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	private @Nullable LockObservationConvention observationConvention;

	private LockObservationConvention defaultObservationConvention = new DefaultLockObservationConvention();

	/**
	 * Create a template over the given lock store, waiting by bounded backoff only.
	 * @param client the lock store
	 */
	public LockTemplate(LockClient client) {
		this(client, new LockWaiter(Duration.ofMillis(500)));
	}

	/**
	 * Create a template over the given lock store, with the given waiter; pass the waiter
	 * that release notifications signal, so that waiting callers wake up on a release.
	 * @param client the lock store
	 * @param waiter the waiter that parks callers of a busy lock
	 */
	public LockTemplate(LockClient client, LockWaiter waiter) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		this.client = client;
		this.waiter = waiter;
		this.acquirer = new LockAcquirer(client, waiter);
		this.multiKeyAcquirer = new MultiKeyAcquirer(this.acquirer);
		this.localQueues = new LocalQueues(client, waiter);
		this.renewer = new LeaseRenewer(client, Duration.ofHours(1));
	}

	/**
	 * Set the watchdog that renews the leases of auto-renewed locks; by default one of
	 * this template's own, with a maximum hold time of one hour.
	 * @param renewer the lease renewer
	 */
	public void setLeaseRenewer(LeaseRenewer renewer) {
		Assert.notNull(renewer, "'renewer' must not be null");
		this.renewer = renewer;
	}

	/**
	 * Set the prefix put before every key in the store; {@value #DEFAULT_KEY_PREFIX} by
	 * default.
	 * @param keyPrefix the key prefix, may be empty; no control characters, as in keys
	 * @throws IllegalArgumentException if the prefix is null or holds a control character
	 */
	public void setKeyPrefix(String keyPrefix) {
		LockKeys.validatePrefix(keyPrefix);
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Set listeners to tell about lock events, in addition to the built-in
	 * {@link #getStatistics() statistics}.
	 * @param listeners the listeners
	 */
	public void setLockListeners(List<LockListener> listeners) {
		Assert.notNull(listeners, "'listeners' must not be null");
		List<LockListener> all = new ArrayList<>();
		all.add(this.counters);
		all.addAll(listeners);
		this.listener = new LockListeners(all);
	}

	/**
	 * Set the registry to record observations of waiting for locks and of holding them
	 * with: a span and a timer each, when tracing and metrics are set up on it; none by
	 * default.
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		Assert.notNull(observationRegistry, "'observationRegistry' must not be null");
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Set the convention that names lock observations and their tags, instead of the
	 * {@link DefaultLockObservationConvention}.
	 * @param observationConvention the convention, or {@code null} for the default
	 */
	public void setObservationConvention(@Nullable LockObservationConvention observationConvention) {
		this.observationConvention = observationConvention;
	}

	/**
	 * Return a read-only view of the counts of what happened to this template's locks.
	 * @return the statistics
	 */
	public LockStatistics getStatistics() {
		return this.statistics;
	}

	/**
	 * Return the locks this template holds now, taken by any thread and not yet released,
	 * for the {@code locks} endpoint and for shutdown.
	 * @return a snapshot of the held locks, oldest first
	 */
	public List<HeldLock> getHeldLocks() {
		Instant now = this.renewer.getClock().instant();
		List<HeldLock> held = new ArrayList<>();
		for (DefaultLockHandle handle : this.heldLocks) {
			HeldLock lock = handle.describe(now);
			if (lock != null) {
				held.add(lock);
			}
		}
		held.sort(Comparator.comparing(HeldLock::acquiredAt));
		return held;
	}

	/**
	 * Release every lock this template holds now, owner-checked, as on shutdown: the code
	 * still running under one of them is no longer protected by it, and is told so first:
	 * the {@link LockHandle#whenLost()} of each lock completes before its release, and a
	 * WARN names it. A release that fails is logged; that lock then expires after its
	 * ttl, since it is no longer renewed.
	 * @return how many locks were released
	 */
	public int releaseHeldLocks() {
		int released = 0;
		for (DefaultLockHandle handle : List.copyOf(this.heldLocks)) {
			try {
				handle.releasedUnderWork("by releaseHeldLocks() (shutdown)");
				handle.close();
				released++;
			}
			catch (RuntimeException ex) {
				logger.warn("Could not release lock '" + handle.key() + "'; it expires after its ttl", ex);
			}
		}
		return released;
	}

	/**
	 * Return how many threads of this template wait for the lock of the key in its local
	 * queue, behind the one that contends for it in the store or holds it.
	 * @param key the lock key, without the key prefix
	 * @return the number of threads waiting locally
	 */
	int localWaiters(String key) {
		return this.localQueues.waiting(this.keyPrefix + key);
	}

	/**
	 * Return how many keys have a local queue now: keys that a thread of this template
	 * waits for, holds or hands over through the queue.
	 * @return the number of local queues
	 */
	int localQueues() {
		return this.localQueues.size();
	}

	/**
	 * Tell whether this template's store can take locks in arrival order, as
	 * {@link LockRequest#withFair(boolean) fair} requests need.
	 * @return whether the store is a {@link FairLockClient}
	 */
	public boolean supportsFairLocks() {
		return this.acquirer.supportsFair();
	}

	/**
	 * Tell whether this template's store can hold keys for reading, as
	 * {@link LockMode#READ} requests need.
	 * @return whether the store is a {@link ReadWriteLockClient}
	 */
	public boolean supportsReadLocks() {
		return this.client instanceof ReadWriteLockClient;
	}

	/**
	 * Tell whether this template's store can hand out a key as a number of permits, as
	 * requests with {@link LockRequest#withPermits(int) permits} above 1 need.
	 * @return whether the store is a {@link PermitLockClient}
	 */
	public boolean supportsPermits() {
		return this.client instanceof PermitLockClient;
	}

	/**
	 * Acquire a lock whose lease is renewed while held, waiting up to the given time.
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @return the held lock, or empty if it stayed busy for the whole wait time
	 * @throws IllegalArgumentException if an argument is invalid
	 * @throws LockBackendException if Redis cannot be reached
	 * @throws LockAcquisitionException if the thread was interrupted while waiting
	 */
	public Optional<LockHandle> tryAcquire(String key, Duration ttl, Duration waitTime) {
		return tryAcquire(LockRequest.of(key, ttl, waitTime));
	}

	/**
	 * Acquire a lock as described by the request. The handle is not bound to the thread
	 * (see {@link LockContext}): its caller decides where it is used and closed.
	 * @param request what to lock and how
	 * @return the held lock, or empty if it stayed busy for the whole wait time
	 * @throws IllegalArgumentException if the request is fair and the store cannot take
	 * fair locks
	 * @throws LockBackendException if Redis cannot be reached
	 * @throws LockAcquisitionException if the thread was interrupted while waiting
	 */
	public Optional<LockHandle> tryAcquire(LockRequest request) {
		Assert.notNull(request, "'request' must not be null");
		return Optional.ofNullable(acquire(request, System.nanoTime(), false));
	}

	/**
	 * Run the action under a lock whose lease is renewed while held, and release the lock
	 * when the action ends, also when it throws.
	 * @param <T> the type of the action's result
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @param action the code to run while holding the lock
	 * @return the action's result
	 * @throws LockAcquisitionException if the lock stayed busy for the whole wait time;
	 * the action did not run
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object> T execute(String key, Duration ttl, Duration waitTime, Supplier<T> action) {
		return execute(LockRequest.of(key, ttl, waitTime), action);
	}

	/**
	 * Run the action under the lock described by the request, and release the lock when
	 * the action ends, under the release policy described {@link LockTemplate above}.
	 * @param <T> the type of the action's result
	 * @param request what to lock and how
	 * @param action the code to run while holding the lock
	 * @return the action's result
	 * @throws LockAcquisitionException if the lock stayed busy for the whole wait time;
	 * the action did not run
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object> T execute(LockRequest request, Supplier<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return execute(request, (lock) -> action.get());
	}

	/**
	 * Run the callback under the lock described by the request, and release the lock when
	 * it ends, under the release policy described {@link LockTemplate above}. What the
	 * callback throws reaches the caller unchanged.
	 * @param <T> the type of the callback's result
	 * @param <E> the type of exception the callback may throw
	 * @param request what to lock and how
	 * @param callback the code to run while holding the lock
	 * @return the callback's result
	 * @throws E what the callback threw
	 * @throws LockAcquisitionException if the lock stayed busy for the whole wait time;
	 * the callback did not run
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback)
			throws E {
		return execute(request, callback, (busy) -> {
			throw busy;
		});
	}

	/**
	 * Run the callback under the lock described by the request as
	 * {@link #execute(LockRequest, LockCallback)} does, or, when the lock stays busy for
	 * the whole wait time, answer with the busy callback instead.
	 * @param <T> the type of the result
	 * @param <E> the type of exception the callbacks may throw
	 * @param request what to lock and how
	 * @param callback the code to run while holding the lock
	 * @param whenBusy what to do when the lock stayed busy
	 * @return the callback's result, or the busy callback's
	 * @throws E what a callback threw
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback,
			LockBusyCallback<T, E> whenBusy) throws E {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(callback, "'callback' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		LockHandle held = findBoundLock(request.key());
		if (held != null) {
			assertReenterable(held, request);
			// Re-entered: the outer call holds the lock and releases it.
			return callback.doWithLock(held);
		}
		long start = System.nanoTime();
		LockHandle handle = acquire(request, start, false);
		if (handle == null) {
			return whenBusy
				.whenBusy(new LockAcquisitionException(request.key(), Duration.ofNanos(System.nanoTime() - start)));
		}
		return releasingAfter(handle::close, "lock '" + request.key() + "'", request.ttl(), () -> {
			// Spans started by the code are children of the one of holding the lock.
			try (Observation.Scope scope = ((DefaultLockHandle) handle).holding().openScope()) {
				return doWithBoundLock(handle, callback);
			}
		});
	}

	/**
	 * Acquire the exclusive locks of several keys, all or none, with leases renewed while
	 * held, waiting up to the given time for all of them to be free at once.
	 * @param keys the lock keys, in any order; duplicates collapse
	 * @param ttl the lease time of each key
	 * @param waitTime how long to wait; zero means try once
	 * @return the held locks, with each key's fencing token, or empty if not all keys
	 * were free at once within the wait time
	 * @throws IllegalArgumentException if an argument is invalid
	 * @throws LockBackendException if Redis cannot be reached
	 * @throws LockAcquisitionException if the thread was interrupted while waiting
	 */
	public Optional<MultiLockHandle> tryAcquireAll(Collection<String> keys, Duration ttl, Duration waitTime) {
		return tryAcquireAll(MultiLockRequest.of(keys, ttl, waitTime));
	}

	/**
	 * Acquire the locks of several keys, all or none, as described by the request. The
	 * handle is not bound to the thread: its caller decides where it is used and closed.
	 * @param request what to lock and how
	 * @return the held locks, or empty if not all keys were free at once within the wait
	 * time
	 * @throws IllegalArgumentException if the request is for READ and the store cannot
	 * take read locks
	 * @throws LockBackendException if Redis cannot be reached
	 * @throws LockAcquisitionException if the thread was interrupted while waiting
	 */
	public Optional<MultiLockHandle> tryAcquireAll(MultiLockRequest request) {
		Assert.notNull(request, "'request' must not be null");
		return Optional.ofNullable(acquireAll(request, request.keys(), List.of(), System.nanoTime()).locks());
	}

	/**
	 * Run the action under the exclusive locks of several keys, taken all or none, with
	 * leases renewed while held, and release them when it ends, also when it throws.
	 * @param <T> the type of the action's result
	 * @param keys the lock keys, in any order; duplicates collapse
	 * @param ttl the lease time of each key
	 * @param waitTime how long to wait for all keys to be free at once; zero means try
	 * once
	 * @param action the code to run while holding every lock
	 * @return the action's result
	 * @throws LockAcquisitionException if not all keys were free at once within the wait
	 * time; the action did not run
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object> T executeAll(Collection<String> keys, Duration ttl, Duration waitTime,
			Supplier<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return executeAll(MultiLockRequest.of(keys, ttl, waitTime), (locks) -> action.get());
	}

	/**
	 * Run the callback under the locks of several keys, taken all or none, and release
	 * them when it ends, under the release policy described {@link LockTemplate above}.
	 * Keys the thread holds already through an outer {@code execute} are re-entered; the
	 * others are taken, and bound to the thread while the callback runs.
	 * @param <T> the type of the callback's result
	 * @param <E> the type of exception the callback may throw
	 * @param request what to lock and how
	 * @param callback the code to run while holding every lock
	 * @return the callback's result
	 * @throws E what the callback threw
	 * @throws LockAcquisitionException if not all keys were free at once within the wait
	 * time; the callback did not run
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback) throws E {
		return executeAll(request, callback, (busy) -> {
			throw busy;
		});
	}

	/**
	 * Run the callback under the locks of several keys as
	 * {@link #executeAll(MultiLockRequest, MultiLockCallback)} does, or, when not all
	 * keys were free at once within the wait time, answer with the busy callback instead.
	 * @param <T> the type of the result
	 * @param <E> the type of exception the callbacks may throw
	 * @param request what to lock and how
	 * @param callback the code to run while holding every lock
	 * @param whenBusy what to do when a key stayed busy; its exception names that key
	 * @return the callback's result, or the busy callback's
	 * @throws E what a callback threw
	 * @throws LockBackendException if Redis cannot be reached
	 */
	public <T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback, LockBusyCallback<T, E> whenBusy) throws E {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(callback, "'callback' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		List<LockHandle> reentered = new ArrayList<>();
		List<String> keys = new ArrayList<>();
		for (String key : request.keys()) {
			LockHandle held = findBoundLock(key);
			if (held != null) {
				assertReenterable(held, request.requestFor(key));
				reentered.add(held);
			}
			else {
				keys.add(key);
			}
		}
		MultiAcquisition acquisition = acquireAll(request, keys, reentered, System.nanoTime());
		DefaultMultiLockHandle locks = acquisition.locks();
		if (locks == null) {
			LockAcquisitionException busy = acquisition.busy();
			Assert.state(busy != null, "Neither locks nor a busy key");
			return whenBusy.whenBusy(busy);
		}
		return releasingAfter(locks::close, "locks " + request.keys(), request.ttl(), () -> {
			for (LockHandle lock : locks.taken()) {
				LockContext.bind(lock);
			}
			try {
				return callback.doWithLocks(locks);
			}
			finally {
				for (int i = locks.taken().size() - 1; i >= 0; i--) {
					LockContext.unbind(locks.taken().get(i));
				}
			}
		});
	}

	/**
	 * The release policy: release after the code, also when it throws; a failed release
	 * is suppressed into the code's exception, or logged after code that completed.
	 */
	private static <T extends @Nullable Object, E extends Throwable> T releasingAfter(Runnable release,
			String description, Duration ttl, LockedCode<T, E> code) throws E {
		T result;
		try {
			result = code.run();
		}
		catch (Throwable ex) {
			try {
				release.run();
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		try {
			release.run();
		}
		catch (RuntimeException ex) {
			// The work is done: failing now would invite the caller to run it again.
			logger.warn("Could not release " + description + " after its code completed; it expires after its ttl of "
					+ ttl.toMillis() + "ms", ex);
		}
		return result;
	}

	/**
	 * The code run under held locks.
	 */
	@FunctionalInterface
	private interface LockedCode<T extends @Nullable Object, E extends Throwable> {

		T run() throws E;

	}

	/**
	 * Run asynchronous work under the lock described by the request: take the lock on the
	 * calling thread (waiting as {@code execute} does), call the action, and hold the
	 * lock until the stage it returns completes, normally, exceptionally or by
	 * cancellation; then release it. The lease is renewed meanwhile, also after the
	 * calling thread returned or ended, up to the maximum hold time.
	 * <p>
	 * When the lock stays busy, the action does not run and the returned stage fails with
	 * a {@link LockAcquisitionException}; a {@link LockBackendException} (or an interrupt
	 * while waiting) fails it likewise: locking failures are never thrown. Cancelling the
	 * returned stage cancels the action's stage (when it is a {@link CompletableFuture},
	 * which does not interrupt the thread doing the work), and the lock is released once
	 * that one completed. The handle is {@link LockContext bound} to the calling thread
	 * only while the action is called, not in the work it starts: pass
	 * {@code lock.fencingToken()} on, and use {@link LockHandle#whenLost()} to stop the
	 * work if the lock is lost.
	 * @param <T> the type of the work's result
	 * @param <E> the type of exception the action may throw
	 * @param request what to lock and how
	 * @param action starts the work under the held lock and returns its stage; a
	 * {@code null} stage counts as completed at once
	 * @return a stage completed with the work's outcome after the lock was released
	 * @throws E what the action threw before returning a stage (after the release)
	 */
	public <T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action) throws E {
		return executeAsync(request, action, CompletableFuture::failedFuture);
	}

	/**
	 * Run asynchronous work under the lock described by the request as
	 * {@link #executeAsync(LockRequest, LockCallback)} does, or, when the lock stays busy
	 * for the whole wait time, answer with the stage of the busy callback instead.
	 * @param <T> the type of the work's result
	 * @param <E> the type of exception the callbacks may throw
	 * @param request what to lock and how
	 * @param action starts the work under the held lock and returns its stage
	 * @param whenBusy answers for a lock that stayed busy; a {@code null} stage counts as
	 * completed with {@code null}
	 * @return a stage completed with the work's outcome after the lock was released, or
	 * the busy callback's stage
	 * @throws E what a callback threw before returning a stage
	 */
	public <T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action,
			LockBusyCallback<? extends @Nullable CompletionStage<T>, E> whenBusy) throws E {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(action, "'action' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		return this.async.execute(request, findBoundLock(request.key()), action, whenBusy);
	}

	/**
	 * Return the lock on the given key that the current thread holds through an enclosing
	 * {@code execute}, {@code executeAll} or {@code executeAsync} (or a
	 * {@code @DistributedLocked} method) of this template, or of another template on the
	 * same {@link LockClient} instance with the same key prefix: the lock that a nested
	 * call for the key re-enters. Locks of the key in another store or under another
	 * prefix are not this template's and are never returned; {@link LockContext#find}
	 * finds those too.
	 * @param key the lock key, without the key prefix
	 * @return the bound lock, or {@code null} if a call for the key would take the lock
	 */
	public @Nullable LockHandle findBoundLock(String key) {
		Assert.notNull(key, "'key' must not be null");
		return LockContext.find(this.client, this.keyPrefix + key);
	}

	static void assertReenterable(LockHandle held, LockRequest request) {
		String key = request.key();
		if (held instanceof DefaultLockHandle handle && !handle.kind().covers(request)) {
			// A reader cannot become a writer while it reads: it would wait for itself.
			throw new LockAcquisitionException(key, Duration.ZERO,
					"Lock '" + key + "' cannot be taken as " + LockKind.describe(request)
							+ " by nested code: this thread holds it as " + handle.kind().describe()
							+ "; the nested code did not run",
					null);
		}
		// Re-entering would run the nested code as if it held a lock that another owner
		// may hold by now. Taking the lock again would not help: the outer code, told of
		// the loss, would still work under its old fencing token. So the nested call
		// fails as one that got no lock, and never as "busy": no failure policy may skip
		// it quietly.
		if (held instanceof DefaultLockHandle handle && handle.isKnownNotHeld()) {
			String why = handle.isKnownLost() ? "its outer call lost it (it was reported lost)"
					: "its outer call released it already";
			throw new LockAcquisitionException(key, Duration.ZERO,
					"Lock '" + key + "' cannot be re-entered: " + why + "; the nested code did not run", null);
		}
	}

	static <T extends @Nullable Object, E extends Throwable> T doWithBoundLock(LockHandle handle,
			LockCallback<T, E> callback) throws E {
		LockContext.bind(handle);
		try {
			return callback.doWithLock(handle);
		}
		finally {
			LockContext.unbind(handle);
		}
	}

	private @Nullable LockHandle acquire(LockRequest request, long start, boolean detached) {
		Assert.isTrue(!request.fair() || supportsFairLocks(),
				() -> "Lock '" + request.key() + "' was requested fair, but the lock store "
						+ this.client.getClass().getName()
						+ " cannot take locks in arrival order (it is no FairLockClient)");
		LockKind kind = LockKind.of(request, this.client);
		String resource = this.keyPrefix + request.key();
		String owner = UUID.randomUUID().toString();
		Observation acquiring = observation(LockObservationContext.Phase.ACQUIRE, request).start();
		LocalQueue.Ticket ticket = this.localQueues.applies(request, kind)
				? this.localQueues.enter(resource, owner, request.ttl()) : null;
		LockAcquirer.Attempt attempt;
		try {
			attempt = (ticket != null)
					? this.localQueues.acquire(ticket, this.acquirer, kind,
							LockAcquirer.deadline(start, request.waitTime()))
					: this.acquirer.acquire(resource, owner, request.ttl(), request.waitTime(), request.fair(), kind);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			Duration waited = Duration.ofNanos(System.nanoTime() - start);
			LockAcquisitionException failure = new LockAcquisitionException(request.key(), waited,
					"Interrupted after waiting " + waited.toMillis() + "ms for lock '" + request.key() + "'", ex);
			stop(acquiring, "failed", -1, failure);
			throw failure;
		}
		catch (LockBackendException ex) {
			LockBackendException failure = LockBackendException.forKey(request.key(), ex);
			stop(acquiring, "failed", -1, failure);
			throw failure;
		}
		catch (RuntimeException ex) {
			stop(acquiring, "failed", -1, ex);
			throw ex;
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		if (attempt.result() instanceof AcquireResult.Acquired acquired) {
			stop(acquiring, "acquired", acquired.fencingToken(), null);
			MultiKeyAcquirer.Taken taken = new MultiKeyAcquirer.Taken(
					new MultiKeyAcquirer.Target(request, kind, resource), owner, acquired.fencingToken(),
					attempt.sentAtNanos());
			return (ticket != null) ? holdQueued(taken, waited, detached, ticket) : hold(taken, waited, detached);
		}
		stop(acquiring, "busy", -1, null);
		this.listener.onNotAcquired(new LockEvent.NotAcquired(request.key(), request.name(), waited));
		return null;
	}

	/**
	 * Make a handle of a key taken through the local queue, which its release goes back
	 * through: it may hand the lock to the next thread of this application.
	 */
	private DefaultLockHandle holdQueued(MultiKeyAcquirer.Taken taken, Duration waited, boolean detached,
			LocalQueue.Ticket ticket) {
		DefaultLockHandle handle;
		try {
			handle = hold(taken, waited, detached, ticket);
		}
		catch (RuntimeException ex) {
			this.localQueues.dropped(ticket);
			throw ex;
		}
		handle.whenLost().thenRun(() -> this.localQueues.lost(ticket));
		return handle;
	}

	/**
	 * Make a handle of a key just taken: renewed, tracked, observed and reported.
	 */
	private DefaultLockHandle hold(MultiKeyAcquirer.Taken taken, Duration waited, boolean detached) {
		return hold(taken, waited, detached, null);
	}

	private DefaultLockHandle hold(MultiKeyAcquirer.Taken taken, Duration waited, boolean detached,
			LocalQueue.@Nullable Ticket ticket) {
		LockRequest request = taken.target().request();
		DefaultLockHandle handle = new DefaultLockHandle(request.key(), request.name(), taken.target().resource(),
				taken.ownerToken(), taken.fencingToken(), this.client, this.listener, taken.target().kind());
		Lease lease = request.autoRenew() ? renew(handle, request.ttl(), taken.sentAtNanos(), detached) : null;
		handle.track(request, this.renewer.getClock().instant(), lease, this.heldLocks::remove);
		// The store publishes a release only when a caller announced itself since the
		// lock was taken; a waiter of this application that was not woken by the last
		// release has not announced itself again, so this application wakes it itself.
		String resource = taken.target().resource();
		if (ticket != null) {
			// The queue wakes what it must: the next thread of this application, or those
			// that wait in the store once the lock was let go.
			handle.releaseWith(() -> this.localQueues.release(ticket));
		}
		else {
			handle.afterRelease(() -> this.waiter.signal(resource));
		}
		this.heldLocks.add(handle);
		Observation holding = observation(LockObservationContext.Phase.HOLD, request);
		if (holding.getContext() instanceof LockObservationContext context) {
			context.setFencingToken(taken.fencingToken());
		}
		handle.observeHolding(holding.start());
		this.listener.onAcquired(new LockEvent.Acquired(request.key(), request.name(), taken.fencingToken(), waited));
		return handle;
	}

	/**
	 * Take the given keys of the request, all or none, and make one handle of them and
	 * the locks re-entered from outer calls.
	 */
	private MultiAcquisition acquireAll(MultiLockRequest request, List<String> keys, List<LockHandle> reentered,
			long start) {
		List<MultiKeyAcquirer.Target> targets = new ArrayList<>(keys.size());
		for (String key : keys) {
			LockRequest single = request.requestFor(key);
			targets.add(new MultiKeyAcquirer.Target(single, LockKind.of(single, this.client), this.keyPrefix + key));
		}
		String description = String.join(", ", request.keys());
		Observation acquiring = observation(LockObservationContext.Phase.ACQUIRE, description, request.name()).start();
		MultiKeyAcquirer.Outcome outcome;
		try {
			outcome = this.multiKeyAcquirer.acquire(targets, request.waitTime(), start);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			Duration waited = Duration.ofNanos(System.nanoTime() - start);
			LockAcquisitionException failure = new LockAcquisitionException(description, waited,
					"Interrupted after waiting " + waited.toMillis() + "ms for locks [" + description + "]", ex);
			stop(acquiring, "failed", -1, failure);
			throw failure;
		}
		catch (RuntimeException ex) {
			stop(acquiring, "failed", -1, ex);
			throw ex;
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		MultiKeyAcquirer.Target busy = outcome.busy();
		if (busy != null) {
			stop(acquiring, "busy", -1, null);
			this.listener.onNotAcquired(new LockEvent.NotAcquired(busy.request().key(), request.name(), waited));
			return new MultiAcquisition(null,
					new LockAcquisitionException(busy.request().key(), waited, "Could not take locks [" + description
							+ "] within " + waited.toMillis() + "ms: lock '" + busy.request().key() + "' stayed busy",
							null));
		}
		stop(acquiring, "acquired", -1, null);
		List<DefaultLockHandle> taken = new ArrayList<>(outcome.taken().size());
		try {
			for (MultiKeyAcquirer.Taken key : outcome.taken()) {
				taken.add(hold(key, waited, false));
			}
		}
		catch (RuntimeException ex) {
			// Not all of them renewed: give every key back, none is used.
			for (MultiKeyAcquirer.Taken key : outcome.taken().subList(taken.size() + 1, outcome.taken().size())) {
				try {
					key.target().kind().release(key.target().resource(), key.ownerToken());
				}
				catch (RuntimeException releaseFailure) {
					ex.addSuppressed(releaseFailure);
				}
			}
			RuntimeException releaseFailure = DefaultMultiLockHandle.releaseAll(taken);
			if (releaseFailure != null) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		List<LockHandle> all = new ArrayList<>(reentered);
		all.addAll(taken);
		all.sort(Comparator.comparing(LockHandle::key));
		return new MultiAcquisition(new DefaultMultiLockHandle(all, Set.copyOf(taken)), null);
	}

	/**
	 * The locks of a multi-key acquisition, or why there are none.
	 */
	private record MultiAcquisition(@Nullable DefaultMultiLockHandle locks, @Nullable LockAcquisitionException busy) {

	}

	private Observation observation(LockObservationContext.Phase phase, LockRequest request) {
		return observation(phase, request.key(), request.name());
	}

	private Observation observation(LockObservationContext.Phase phase, String key, String name) {
		return Observation.createNotStarted(this.observationConvention, this.defaultObservationConvention,
				() -> new LockObservationContext(phase, key, name), this.observationRegistry);
	}

	private static void stop(Observation observation, String outcome, long fencingToken, @Nullable Throwable failure) {
		if (observation.getContext() instanceof LockObservationContext context) {
			context.setOutcome(outcome);
			context.setFencingToken(fencingToken);
		}
		if (failure != null) {
			observation.error(failure);
		}
		observation.stop();
	}

	private Lease renew(DefaultLockHandle handle, Duration ttl, long startNanos, boolean detached) {
		Lease lease;
		try {
			Instant startedAt = this.renewer.getClock().instant().minusNanos(System.nanoTime() - startNanos);
			LeaseRenewer renewer = this.renewer;
			handle.notifyLostOn((notification) -> renewer.notifyListeners(handle.key(), notification));
			// The lease of async work must not stop when the calling thread ends.
			lease = detached
					? this.renewer.registerDetached(handle.leaseKey(), handle.ownerToken(), ttl, startedAt,
							handle::markLost)
					: this.renewer.register(handle.leaseKey(), handle.ownerToken(), ttl, startedAt, handle::markLost);
		}
		catch (RuntimeException ex) {
			// Not renewed, the lease would run out under the caller: give the lock back.
			try {
				handle.kind().release(handle.resource(), handle.ownerToken());
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		handle.beforeRelease(lease::cancel);
		return lease;
	}

	/**
	 * Ask the lock store what it knows of the lock of the given key right now: whether it
	 * is held, for how much longer, the last fencing token handed out and how many fair
	 * waiters queue for it. The holder's owner token is never part of the answer.
	 * @param key the lock key, without the key prefix
	 * @return the lock's state
	 * @throws IllegalArgumentException if the key is invalid
	 * @throws UnsupportedOperationException if the store is no
	 * {@link InspectableLockClient}
	 * @throws LockBackendException if the store cannot be reached
	 */
	public LockState inspect(String key) {
		LockKeys.validate(key);
		InspectableLockClient client = inspectableClient();
		try {
			return client.inspect(this.keyPrefix + key);
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(key, ex);
		}
	}

	/**
	 * Remove the lock of the given key whoever holds it, and wake its waiters; the next
	 * holder gets a greater fencing token, as always. This breaks mutual exclusion on
	 * purpose: the removed holder may still be working. A holder of this template has its
	 * {@link LockHandle#whenLost()} completed at once, before the removal; a holder
	 * elsewhere learns of the loss when it next renews or releases the lock.
	 * @param key the lock key, without the key prefix
	 * @return {@code true} if a lock was removed, {@code false} if the key was not held
	 * @throws IllegalArgumentException if the key is invalid
	 * @throws UnsupportedOperationException if the store is no
	 * {@link InspectableLockClient}
	 * @throws LockBackendException if the store cannot be reached
	 */
	public boolean forceRelease(String key) {
		LockKeys.validate(key);
		InspectableLockClient client = inspectableClient();
		// Work of this template under the lock hears of it first, not at its next
		// renewal.
		for (DefaultLockHandle handle : List.copyOf(this.heldLocks)) {
			if (handle.isLockOf(this.client, this.keyPrefix + key)) {
				handle.releasedUnderWork("by forceRelease (an operator)");
			}
		}
		boolean removed;
		try {
			removed = client.forceRelease(this.keyPrefix + key);
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(key, ex);
		}
		// Always worth a trace: whoever held the lock may still be working under it.
		logger.warn("Force-released lock '" + key + "': "
				+ (removed ? "a lock was removed, whoever held it" : "no lock was held"));
		return removed;
	}

	private InspectableLockClient inspectableClient() {
		if (this.client instanceof InspectableLockClient inspectable) {
			return inspectable;
		}
		throw new UnsupportedOperationException("The lock store " + this.client.getClass().getName()
				+ " cannot inspect or force-release locks (it is no InspectableLockClient)");
	}

}
