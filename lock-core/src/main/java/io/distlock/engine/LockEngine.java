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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockAdministration;
import io.distlock.LockBusyCallback;
import io.distlock.LockCallback;
import io.distlock.LockHandle;
import io.distlock.LockKeys;
import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockStatistics;
import io.distlock.MultiLockCallback;
import io.distlock.MultiLockHandle;
import io.distlock.MultiLockRequest;
import io.distlock.WaitedOnLock;
import io.distlock.WaitingLock;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.LockClient;
import io.distlock.store.LockState;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * The lock engine of an application: the one object that its front doors
 * ({@code LockTemplate}, {@code ReactiveLockTemplate}, {@code LeaderElection}, and
 * through them {@code @DistributedLocked} methods and the ShedLock and Spring Integration
 * adapters) are views of. It owns what they share: the registry of held locks, the
 * callers that wait, the owner tokens, one local queue per key, the statistics and the
 * lease renewer; and it runs one acquisition pipeline for one key, several keys and async
 * work, with the release policies.
 *
 * <p>
 * Spring Boot declares one as a bean; without Spring Boot, create one per store and build
 * the front doors on it. Its {@code acquire} and {@code execute} methods are the front
 * doors' entry points: applications call them through {@code LockTemplate}. It checks the
 * arguments of the calls it runs.
 *
 * @see io.distlock.LockTemplate#LockTemplate(LockEngine)
 */
public final class LockEngine implements LockAdministration {

	private final EngineParts parts;

	private final AcquisitionPipeline pipeline;

	private final MultiKeyPipeline multiKey;

	private final SyncReleasePolicy execution;

	private final AsyncReleasePolicy async;

	private final LockInspection inspection;

	/**
	 * Create an engine over the given store, with the default settings, a waiter that
	 * polls busy locks every 500 ms when no release notification wakes it, and a lease
	 * renewer of its own.
	 * @param client the lock store
	 */
	public LockEngine(LockClient client) {
		this(client, new LockWaiter(Duration.ofMillis(500)), LockSettings.defaults());
	}

	/**
	 * Create an engine over the given store and waiter, with a lease renewer of its own
	 * (with a maximum hold time of one hour).
	 * @param client the lock store
	 * @param waiter the waiter that parks callers of a busy lock, which release
	 * notifications signal
	 * @param settings the settings
	 */
	public LockEngine(LockClient client, LockWaiter waiter, LockSettings settings) {
		this(client, waiter, settings, EngineParts.defaultRenewer(checked(client)));
	}

	/**
	 * Create an engine over the given store and waiter, whose auto-renewed locks the
	 * given lease renewer renews.
	 * @param client the lock store
	 * @param waiter the waiter that parks callers of a busy lock, which release
	 * notifications signal
	 * @param settings the settings
	 * @param leaseRenewer the watchdog of the auto-renewed locks
	 */
	public LockEngine(LockClient client, LockWaiter waiter, LockSettings settings, LeaseRenewer leaseRenewer) {
		this(new EngineParts(checked(client), notNull(waiter, "waiter"), notNull(settings, "settings"),
				notNull(leaseRenewer, "leaseRenewer")));
	}

	private LockEngine(EngineParts parts) {
		this.parts = parts;
		this.pipeline = new AcquisitionPipeline(parts);
		this.multiKey = new MultiKeyPipeline(parts, this.pipeline);
		this.execution = new SyncReleasePolicy(parts, this.pipeline, this.multiKey);
		this.async = new AsyncReleasePolicy((request, start) -> this.pipeline.take(request, start, true));
		this.inspection = new LockInspection(parts);
	}

	EngineParts parts() {
		return this.parts;
	}

	private static LockClient checked(LockClient client) {
		return notNull(client, "client");
	}

	private static <T> T notNull(T value, String name) {
		Assert.notNull(value, () -> "'" + name + "' must not be null");
		return value;
	}

	/**
	 * Return a view of this engine that shares all it owns but renews its auto-renewed
	 * locks with another lease renewer: leader election renews its lock without the
	 * maximum hold time of the application's renewer.
	 * @param leaseRenewer the lease renewer of the view
	 * @return the view
	 */
	public LockEngine withLeaseRenewer(LeaseRenewer leaseRenewer) {
		return new LockEngine(this.parts.withRenewer(notNull(leaseRenewer, "leaseRenewer")));
	}

	@Override
	public LockSettings getSettings() {
		return this.parts.settings();
	}

	/**
	 * Return the lock store.
	 * @return the store
	 */
	public LockClient getClient() {
		return this.parts.client();
	}

	/**
	 * Return the waiter that parks callers of a busy lock.
	 * @return the waiter
	 */
	public LockWaiter getWaiter() {
		return this.parts.waiter();
	}

	/**
	 * Return the watchdog of the auto-renewed locks.
	 * @return the lease renewer
	 */
	public LeaseRenewer getLeaseRenewer() {
		return this.parts.renewer();
	}

	@Override
	public LockStatistics getStatistics() {
		return this.parts.statistics();
	}

	/**
	 * Acquire the lock of the request, unbound from the thread.
	 * @param request what to lock and how
	 * @return the held lock, or {@code null} if it stayed busy
	 */
	public @Nullable LockHandle acquire(LockRequest request) {
		RenewedTtlCheck.check(request);
		return this.pipeline.acquire(request, System.nanoTime(), false);
	}

	/**
	 * Run the callback under the lock of the request, under the synchronous release
	 * policy.
	 * @param <T> the type of the result
	 * @param <E> the type of exception the callbacks may throw
	 * @param request what to lock and how
	 * @param callback the code to run under the lock
	 * @param whenBusy what to do when the lock stayed busy
	 * @return the result
	 * @throws E what a callback threw
	 */
	public <T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback,
			LockBusyCallback<T, E> whenBusy) throws E {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(callback, "'callback' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		RenewedTtlCheck.check(request);
		return this.execution.execute(request, callback, whenBusy);
	}

	/**
	 * Acquire the locks of several keys, all or none, unbound from the thread.
	 * @param request what to lock and how
	 * @return the held locks, or {@code null} if not all keys were free at once
	 */
	public @Nullable MultiLockHandle acquireAll(MultiLockRequest request) {
		RenewedTtlCheck.check(request);
		return this.multiKey.acquire(request, request.keys(), List.of(), System.nanoTime()).locks();
	}

	/**
	 * Run the callback under the locks of several keys, under the synchronous release
	 * policy.
	 * @param <T> the type of the result
	 * @param <E> the type of exception the callbacks may throw
	 * @param request what to lock and how
	 * @param callback the code to run under the locks
	 * @param whenBusy what to do when a key stayed busy
	 * @return the result
	 * @throws E what a callback threw
	 */
	public <T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback, LockBusyCallback<T, E> whenBusy) throws E {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(callback, "'callback' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		RenewedTtlCheck.check(request);
		return this.execution.executeAll(request, callback, whenBusy);
	}

	/**
	 * Run async work under the lock of the request, held until its stage completes.
	 * @param <T> the type of the work's result
	 * @param <E> the type of exception the callbacks may throw
	 * @param request what to lock and how
	 * @param action starts the work and returns its stage
	 * @param whenBusy answers for a lock that stayed busy
	 * @return a stage completed with the work's outcome after the release
	 * @throws E what a callback threw before returning a stage
	 */
	public <T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action,
			LockBusyCallback<? extends @Nullable CompletionStage<T>, E> whenBusy) throws E {
		Assert.notNull(request, "'request' must not be null");
		Assert.notNull(action, "'action' must not be null");
		Assert.notNull(whenBusy, "'whenBusy' must not be null");
		RenewedTtlCheck.check(request);
		return this.async.execute(request, findBoundLock(request.key()), action, whenBusy);
	}

	/**
	 * Return the lock of the key that the current thread holds through this engine's
	 * store and key prefix.
	 * @param key the lock key, without the key prefix
	 * @return the bound lock, or {@code null}
	 */
	public @Nullable LockHandle findBoundLock(String key) {
		return BoundLocks.find(this.parts.client(), this.parts.resource(key));
	}

	/**
	 * Return the locks held through every front door of this engine's settings.
	 * @return a snapshot, oldest first
	 */
	@Override
	public List<HeldLock> getHeldLocks() {
		return this.parts.heldLocks().describe(this.parts.renewer().getClock().instant());
	}

	@Override
	public List<WaitingLock> getWaitingLocks() {
		return this.parts.waitingLocks().describe();
	}

	@Override
	public List<WaitedOnLock> getMostWaitedOnLocks(int limit) {
		return this.parts.waitingLocks().mostWaitedOn(limit);
	}

	@Override
	public int getWaitingCount(String name) {
		return this.parts.waitingLocks().waitingNow(name);
	}

	@Override
	public void forEachWaitedOnName(Consumer<String> listener) {
		this.parts.waitingLocks().forEachName(listener);
	}

	/**
	 * Release every lock held through the front doors of this engine's settings.
	 * @return how many were released
	 */
	@Override
	public int releaseHeldLocks() {
		return this.parts.heldLocks().releaseAll("by releaseHeldLocks() (shutdown)");
	}

	/**
	 * Tell whether the store takes locks in arrival order.
	 * @return whether fair requests can be served
	 */
	@Override
	public boolean supportsFairLocks() {
		return this.parts.acquirer().supportsFair();
	}

	/**
	 * Tell whether the store holds keys for reading.
	 * @return whether the store is a {@link ReadWriteLockClient}
	 */
	@Override
	public boolean supportsReadLocks() {
		return this.parts.client() instanceof ReadWriteLockClient;
	}

	/**
	 * Tell whether the store hands out a key as several permits.
	 * @return whether the store is a {@link PermitLockClient}
	 */
	@Override
	public boolean supportsPermits() {
		return this.parts.client() instanceof PermitLockClient;
	}

	/**
	 * Return how many threads wait for the key in its local queue.
	 * @param key the lock key, without the key prefix
	 * @return the number of local waiters
	 */
	public int localWaiters(String key) {
		return this.parts.localQueues().waiting(this.parts.resource(key));
	}

	/**
	 * Return how many keys have a local queue now.
	 * @return the number of local queues
	 */
	public int localQueues() {
		return this.parts.localQueues().size();
	}

	/**
	 * Ask the store about the lock of a key.
	 * @param key the lock key, without the key prefix
	 * @return its state
	 */
	@Override
	public LockState inspect(String key) {
		LockKeys.validate(key);
		return this.inspection.inspect(key);
	}

	/**
	 * Remove the lock of a key whoever holds it.
	 * @param key the lock key, without the key prefix
	 * @return whether a lock was removed
	 */
	@Override
	public boolean forceRelease(String key) {
		LockKeys.validate(key);
		return this.inspection.forceRelease(key);
	}

}
