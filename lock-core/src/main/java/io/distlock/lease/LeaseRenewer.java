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

package io.distlock.lease;

import io.distlock.store.LockClient;
import io.distlock.store.Renewal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.util.Assert;

/**
 * The watchdog: renews the leases of all held auto-renewed locks every third of their
 * ttl, so that a long task keeps its lock and a crashed holder's lock expires after one
 * ttl.
 *
 * <p>
 * Leases due at about the same time are renewed together in one
 * {@link LockClient#renewAll batch}. A renewal that finds the lock gone reports the lease
 * lost at once; one that cannot reach the store is retried until the lease runs out, and
 * then reported lost. A lease whose renewal is still waiting for the store when it runs
 * out is reported lost at that instant, whatever the command timeout; a late answer does
 * not bring it back. Renewal also stops, with a warning, when the holder thread ended or
 * the lock was held longer than the maximum hold time, so that a leaked lock is not
 * renewed forever; the lease is then reported lost as well.
 *
 * <p>
 * The renewals are planned by one-shot ticks on a {@link TaskScheduler}, whose
 * {@link TaskScheduler#getClock() clock} times every lease. By default that is a
 * scheduler of its own, with one daemon thread and a monotonic clock that wall-clock
 * jumps do not move. The calls to the store run on other daemon threads
 * ({@code distlock-lease-renewal}, one while the store answers, at most four while calls
 * hang), and the lost-lease callbacks on two more ({@code distlock-lock-lost}), so that
 * neither a hung store nor a slow callback delays the ticks. A lost lease is
 * {@link Lease#isLost() marked lost} on the ticking thread at the instant it is found,
 * before its callback runs. Lock listeners told of a loss run on two threads of their own
 * ({@code distlock-lock-listener}, see {@link #notifyListeners(String, Runnable)}), so
 * that no listener delays the callback that tells the holder. Registering and cancelling
 * a lease are constant-time, safe on virtual threads.
 *
 * <p>
 * As a Spring bean it is not stopped when Spring pauses its application context (as the
 * test context cache does with a context it keeps for later): the work that holds a lock
 * goes on while its context is paused. {@link #stop()} is not final: a start or a
 * registration brings the renewer back, with the threads it made for itself made again;
 * only {@link #close()} is.
 *
 * @see Lease
 */
public final class LeaseRenewer implements SmartLifecycle, AutoCloseable {

	private final Clock clock;

	private final Set<Lease> leases = ConcurrentHashMap.newKeySet();

	private final RenewalTimer timer;

	private final ListenerDispatch listeners;

	private final RenewerLifecycle lifecycle;

	/**
	 * Create a renewer on a scheduler of its own: one daemon thread named
	 * {@code distlock-lease-renewer}, and a monotonic clock.
	 * @param client the lock store
	 * @param maxHold how long a lock is renewed at most
	 */
	public LeaseRenewer(LockClient client, Duration maxHold) {
		this(client, maxHold, RenewerExecutors.defaultScheduler(), true, null, null, null);
	}

	/**
	 * Create a renewer on the given scheduler, timing leases with its clock.
	 * @param client the lock store
	 * @param maxHold how long a lock is renewed at most
	 * @param scheduler the scheduler to run the renewals on; not shut down by
	 * {@link #close()}
	 */
	public LeaseRenewer(LockClient client, Duration maxHold, TaskScheduler scheduler) {
		this(client, maxHold, scheduler, false, null, null, null);
	}

	/**
	 * Create a renewer on the given scheduler that runs the calls to the store and the
	 * lost-lease callbacks on the given executors.
	 * @param client the lock store
	 * @param maxHold how long a lock is renewed at most
	 * @param scheduler the scheduler to plan the renewals on
	 * @param calls runs the {@link LockClient#renewAll} calls
	 * @param listeners runs the callbacks of lost leases, and what is handed to
	 * {@link #notifyListeners(String, Runnable)}
	 */
	LeaseRenewer(LockClient client, Duration maxHold, TaskScheduler scheduler, Executor calls, Executor listeners) {
		this(client, maxHold, scheduler, false, calls, listeners, listeners);
	}

	private LeaseRenewer(LockClient client, Duration maxHold, TaskScheduler scheduler, boolean ownScheduler,
			@Nullable Executor calls, @Nullable Executor lostCallbacks, @Nullable Executor listeners) {
		Assert.notNull(client, "'client' must not be null");
		Assert.isTrue(maxHold != null && maxHold.toNanos() > 0, "'maxHold' must be positive");
		Assert.notNull(scheduler, "'scheduler' must not be null");
		RenewerThreads threads = new RenewerThreads(scheduler, ownScheduler, calls, lostCallbacks, listeners);
		this.clock = scheduler.getClock();
		LostLeaseReporter reporter = new LostLeaseReporter(threads.lostCallbacks());
		RenewalTick tick = new RenewalTick(client, this.clock, new LeaseStopPolicy(maxHold), this.leases,
				threads.calls(), reporter, this::wakeUp);
		this.timer = new RenewalTimer(scheduler, tick::run);
		this.listeners = new ListenerDispatch(threads.listeners());
		this.lifecycle = new RenewerLifecycle(this.leases, tick, this.timer, threads, reporter);
	}

	/**
	 * Return the clock that times the leases: the scheduler's clock.
	 * @return the clock
	 */
	public Clock getClock() {
		return this.clock;
	}

	/**
	 * Start renewing a lease that starts now: first after a third of its ttl, then every
	 * third of it. Renewal stops when the lease is cancelled, found lost, its holder (the
	 * calling thread) ends, the maximum hold time has passed or this renewer is stopped
	 * or closed; all but the first report the lease lost.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param ttl the lease time
	 * @param onLost called once, on a thread of lost callbacks, when the lease is lost;
	 * it should be quick and tell listeners through
	 * {@link #notifyListeners(String, Runnable)}
	 * @return the lease, to cancel before the lock is released
	 * @throws IllegalStateException if this renewer was closed
	 * @throws org.springframework.core.task.TaskRejectedException if the scheduler did
	 * not take the renewal
	 */
	public Lease register(String key, String ownerToken, Duration ttl, Runnable onLost) {
		return register(key, ownerToken, ttl, this.clock.instant(), onLost);
	}

	/**
	 * Start renewing a lease that started at the given instant: when the acquisition was
	 * sent, since its lease ran from the moment the store took it, a round trip before
	 * the answer arrived. The first renewal is due a third of the ttl after it.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param ttl the lease time
	 * @param startedAt when the acquisition was sent, read from {@link #getClock()}
	 * @param onLost called once, on a thread of lost callbacks, when the lease is lost;
	 * it should be quick and tell listeners through
	 * {@link #notifyListeners(String, Runnable)}
	 * @return the lease, to cancel before the lock is released
	 * @throws IllegalStateException if this renewer was closed
	 * @throws org.springframework.core.task.TaskRejectedException if the scheduler did
	 * not take the renewal
	 */
	public Lease register(String key, String ownerToken, Duration ttl, Instant startedAt, Runnable onLost) {
		return register(key, ownerToken, ttl, startedAt, onLost, Thread.currentThread());
	}

	/**
	 * Start renewing a lease that started at the given instant, as
	 * {@link #register(String, String, Duration, Instant, Runnable)} does, but detached
	 * from the calling thread: renewal goes on after that thread ends, until the lease is
	 * cancelled, found lost, held longer than the maximum hold time, or this renewer is
	 * closed. For the lock of asynchronous work, which outlives the thread that took it.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param ttl the lease time
	 * @param startedAt when the acquisition was sent, read from {@link #getClock()}
	 * @param onLost called once, on a thread of lost callbacks, when the lease is lost;
	 * it should be quick and tell listeners through
	 * {@link #notifyListeners(String, Runnable)}
	 * @return the lease, to cancel before the lock is released
	 * @throws IllegalStateException if this renewer was closed
	 * @throws org.springframework.core.task.TaskRejectedException if the scheduler did
	 * not take the renewal
	 */
	public Lease registerDetached(String key, String ownerToken, Duration ttl, Instant startedAt, Runnable onLost) {
		return register(key, ownerToken, ttl, startedAt, onLost, null);
	}

	private Lease register(String key, String ownerToken, Duration ttl, Instant startedAt, Runnable onLost,
			@Nullable Thread holder) {
		Assert.notNull(key, "'key' must not be null");
		Assert.notNull(ownerToken, "'ownerToken' must not be null");
		Assert.notNull(ttl, "'ttl' must not be null");
		Assert.notNull(startedAt, "'startedAt' must not be null");
		Assert.notNull(onLost, "'onLost' must not be null");
		Lease lease = new Lease(new Renewal(key, ownerToken, ttl), holder, startedAt, onLost, this.leases::remove);
		this.lifecycle.add(lease);
		return lease;
	}

	/**
	 * Tell the listeners of a lost lock, on a thread of this renewer's that runs nothing
	 * else ({@code distlock-lock-listener}): after the lock's holder was told, so that
	 * listeners, the application's code, can neither delay that nor the loss of any other
	 * lock. Two threads take turns, so that one blocking listener does not hold up every
	 * other report; at most 10,000 reports wait for them, and one beyond that is dropped
	 * with a WARN naming the lock.
	 * @param key the key of the lost lock, for the log
	 * @param notification what tells the listeners; a failure of it is logged
	 */
	public void notifyListeners(String key, Runnable notification) {
		this.listeners.dispatch(key, notification);
	}

	/**
	 * Return how many leases are being renewed.
	 * @return the number of leases
	 */
	public int size() {
		return this.leases.size();
	}

	/**
	 * Return how many leases are behind on renewal: the renewal due a third of the ttl
	 * after the last confirmed one is still unconfirmed a quarter of that interval (at
	 * least 10ms) later, because the store failed it or has not answered.
	 * <p>
	 * Such a lease is still held and its renewal retried, but it is reported lost if no
	 * renewal is confirmed before its ttl runs out. A backlog that stays above zero means
	 * the store is unreachable or slower than the leases allow.
	 * @return the number of leases behind on renewal
	 */
	public int backlog() {
		Instant now = this.clock.instant();
		int overdue = 0;
		for (Lease lease : this.leases) {
			if (!lease.isCancelled() && lease.schedule().isOverdue(now)) {
				overdue++;
			}
		}
		return overdue;
	}

	/**
	 * Start renewing, again after a {@link #stop()}, with the threads this renewer made
	 * for itself made again. Registering a lease starts the renewer as well, so calling
	 * this is optional; a closed renewer does not start again.
	 */
	@Override
	public void start() {
		this.lifecycle.start();
	}

	/**
	 * Stop renewing until started again: leases still registered are no longer renewed
	 * and are reported lost (they expire within their ttl), and the threads this renewer
	 * made for itself are shut down. Unlike {@link #close()}, not final: a start or a
	 * registration brings the renewer back.
	 */
	@Override
	public void stop() {
		this.lifecycle.stop();
	}

	/**
	 * Tell whether the renewer was started, by {@link #start()} or a registration, and
	 * not stopped or closed since.
	 * @return whether it is running
	 */
	@Override
	public boolean isRunning() {
		return this.lifecycle.isRunning();
	}

	/**
	 * Tell Spring not to stop the renewer when it pauses the application context: the
	 * work that holds a lock goes on while its context is paused (a test context that the
	 * context cache keeps for later, say), so its lease must go on being renewed.
	 * @return {@code false}
	 */
	@Override
	public boolean isPauseable() {
		return false;
	}

	/**
	 * Return the lifecycle phase: the renewer stops after the application's own beans,
	 * which may still hold locks, and before the connection factories it renews through.
	 * @return {@code SmartLifecycle.DEFAULT_PHASE - 2048}
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 2048;
	}

	/**
	 * Stop renewing for good. Leases still registered are no longer renewed and are
	 * reported lost; they expire within their ttl. Registering new ones fails. A
	 * scheduler this renewer created is shut down, one it was given is not.
	 */
	@Override
	public void close() {
		this.lifecycle.close();
	}

	private void wakeUp() {
		this.timer.runNow();
	}

}
