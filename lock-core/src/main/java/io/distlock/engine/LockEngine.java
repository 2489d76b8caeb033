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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockBusyCallback;
import io.distlock.LockCallback;
import io.distlock.LockHandle;
import io.distlock.LockListener;
import io.distlock.LockRequest;
import io.distlock.MultiLockCallback;
import io.distlock.MultiLockHandle;
import io.distlock.MultiLockRequest;
import io.distlock.store.LockClient;
import io.distlock.store.LockState;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * The engine under the blocking front doors ({@code LockTemplate}, and through it
 * {@code @DistributedLocked} methods and {@code LeaderElection}): one acquisition
 * pipeline for one key, several keys and async work, the release policies, and the
 * administration of held locks. It checks the arguments of the calls it runs.
 *
 * <p>
 * For the front doors of distlock only; applications use {@code LockTemplate}.
 */
public final class LockEngine {

	private final LockStack stack;

	private final LockPipeline pipeline;

	private final MultiKeyAcquisition multiKey;

	private final LockExecution execution;

	private final AsyncLockExecution async;

	private final LockAdministration administration;

	/**
	 * Create an engine over the given store and waiter.
	 * @param client the lock store
	 * @param waiter the waiter that parks callers of a busy lock
	 * @param settings the settings shared with other front doors
	 * @param ownListener the front door's own listener, told before those of the settings
	 */
	public LockEngine(LockClient client, LockWaiter waiter, LockSettings settings, LockListener ownListener) {
		this.stack = new LockStack(client, waiter, settings, ownListener);
		this.pipeline = new LockPipeline(this.stack);
		this.multiKey = new MultiKeyAcquisition(this.stack, this.pipeline);
		this.execution = new LockExecution(this.stack, this.pipeline, this.multiKey);
		this.async = new AsyncLockExecution((request, start) -> this.pipeline.take(request, start, true));
		this.administration = new LockAdministration(this.stack);
	}

	/**
	 * Return the settings this engine reads on every acquisition.
	 * @return the settings
	 */
	public LockSettings getSettings() {
		return this.stack.settings();
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
		return BoundLocks.find(this.stack.client(), this.stack.resource(key));
	}

	/**
	 * Return the locks held through every front door of this engine's settings.
	 * @return a snapshot, oldest first
	 */
	public List<HeldLock> getHeldLocks() {
		return this.stack.settings().heldLocks().describe(this.stack.renewer().getClock().instant());
	}

	/**
	 * Release every lock held through the front doors of this engine's settings.
	 * @return how many were released
	 */
	public int releaseHeldLocks() {
		return this.stack.settings().heldLocks().releaseAll("by releaseHeldLocks() (shutdown)");
	}

	/**
	 * Tell whether the store takes locks in arrival order.
	 * @return whether fair requests can be served
	 */
	public boolean supportsFairLocks() {
		return this.stack.acquirer().supportsFair();
	}

	/**
	 * Tell whether the store holds keys for reading.
	 * @return whether the store is a {@link ReadWriteLockClient}
	 */
	public boolean supportsReadLocks() {
		return this.stack.client() instanceof ReadWriteLockClient;
	}

	/**
	 * Tell whether the store hands out a key as several permits.
	 * @return whether the store is a {@link PermitLockClient}
	 */
	public boolean supportsPermits() {
		return this.stack.client() instanceof PermitLockClient;
	}

	/**
	 * Return how many threads wait for the key in its local queue.
	 * @param key the lock key, without the key prefix
	 * @return the number of local waiters
	 */
	public int localWaiters(String key) {
		return this.stack.localQueues().waiting(this.stack.resource(key));
	}

	/**
	 * Return how many keys have a local queue now.
	 * @return the number of local queues
	 */
	public int localQueues() {
		return this.stack.localQueues().size();
	}

	/**
	 * Ask the store about the lock of a key.
	 * @param key the lock key, without the key prefix
	 * @return its state
	 */
	public LockState inspect(String key) {
		return this.administration.inspect(key);
	}

	/**
	 * Remove the lock of a key whoever holds it.
	 * @param key the lock key, without the key prefix
	 * @return whether a lock was removed
	 */
	public boolean forceRelease(String key) {
		return this.administration.forceRelease(key);
	}

}
