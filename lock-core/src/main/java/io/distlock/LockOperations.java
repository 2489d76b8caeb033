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
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.store.FairLockClient;

/**
 * The operations of {@link LockTemplate}: take a distributed lock, run code under it,
 * release it. An interface, as Spring's {@code JdbcOperations} is of
 * {@code JdbcTemplate}, so that code under test can be given another implementation; what
 * operators ask of the locks is {@link LockAdministration}.
 *
 * <p>
 * Keys are given without the key prefix, which the template adds. Every acquisition gets
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
 * is {@link LockContext bound} to the thread, and a nested call for the same lock (same
 * key, store instance and key prefix) re-enters it; re-entering a lock already found lost
 * throws a {@link LockAcquisitionException} instead of running the nested code.
 * <p>
 * The {@code executeAsync} methods hold the policy for asynchronous work, which
 * {@code @DistributedLocked} methods returning a {@link CompletionStage} share: the lock
 * is released when the work's stage completes, not when the code that started it returns.
 * <p>
 * Errors: every method throws a {@link LockBackendException} when the store cannot be
 * reached (within its command timeout), an {@link IllegalArgumentException} for an
 * invalid argument, and a {@link LockAcquisitionException} when the thread is interrupted
 * while it waits for a lock.
 *
 * @see LockTemplate
 */
public interface LockOperations {

	/**
	 * Acquire a lock whose lease is renewed while held, waiting up to the given time.
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @return the held lock, or empty if it stayed busy for the whole wait time
	 */
	Optional<LockHandle> tryAcquire(String key, Duration ttl, Duration waitTime);

	/**
	 * Acquire a lock as described by the request. The handle is not bound to the thread
	 * (see {@link LockContext}): its caller decides where it is used and closed.
	 * @param request what to lock and how
	 * @return the held lock, or empty if it stayed busy for the whole wait time
	 * @throws IllegalArgumentException if the request is fair and the store cannot take
	 * fair locks
	 */
	Optional<LockHandle> tryAcquire(LockRequest request);

	/**
	 * Run the action under a lock whose lease is renewed while held, and release it when
	 * the action ends, also when it throws; a busy lock throws a
	 * {@link LockAcquisitionException}, and the action does not run.
	 * @param <T> the type of the action's result
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock; zero means try once
	 * @param action the code to run while holding the lock
	 * @return the action's result
	 */
	<T extends @Nullable Object> T execute(String key, Duration ttl, Duration waitTime, Supplier<T> action);

	/**
	 * Run the action under the lock of the request, as
	 * {@link #execute(LockRequest, LockCallback)} runs a callback.
	 * @param <T> the type of the action's result
	 * @param request what to lock and how
	 * @param action the code to run while holding the lock
	 * @return the action's result
	 */
	<T extends @Nullable Object> T execute(LockRequest request, Supplier<T> action);

	/**
	 * Run the callback under the lock described by the request, and release the lock when
	 * it ends, under the release policy described {@link LockOperations above}. What the
	 * callback throws reaches the caller unchanged.
	 * @param <T> the type of the callback's result
	 * @param <E> the type of exception the callback may throw
	 * @param request what to lock and how
	 * @param callback the code to run while holding the lock
	 * @return the callback's result
	 * @throws E what the callback threw
	 * @throws LockAcquisitionException if the lock stayed busy for the whole wait time;
	 * the callback did not run
	 */
	<T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback)
			throws E;

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
	 */
	<T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback,
			LockBusyCallback<T, E> whenBusy) throws E;

	/**
	 * Acquire the exclusive locks of several keys, all or none, with leases renewed while
	 * held, waiting up to the given time for all of them to be free at once.
	 * @param keys the lock keys, in any order; duplicates collapse
	 * @param ttl the lease time of each key
	 * @param waitTime how long to wait; zero means try once
	 * @return the held locks, with each key's fencing token, or empty if not all keys
	 * were free at once within the wait time
	 */
	Optional<MultiLockHandle> tryAcquireAll(Collection<String> keys, Duration ttl, Duration waitTime);

	/**
	 * Acquire the locks of several keys, all or none, as described by the request. The
	 * handle is not bound to the thread: its caller decides where it is used and closed.
	 * @param request what to lock and how
	 * @return the held locks, or empty if not all keys were free at once within the wait
	 * time
	 * @throws IllegalArgumentException if the request is for READ and the store cannot
	 * take read locks
	 */
	Optional<MultiLockHandle> tryAcquireAll(MultiLockRequest request);

	/**
	 * Run the action under the exclusive locks of several keys, as
	 * {@link #executeAll(MultiLockRequest, MultiLockCallback)} runs a callback.
	 * @param <T> the type of the action's result
	 * @param keys the lock keys, in any order; duplicates collapse
	 * @param ttl the lease time of each key
	 * @param waitTime how long to wait for all keys to be free at once; zero means try
	 * once
	 * @param action the code to run while holding every lock
	 * @return the action's result
	 */
	<T extends @Nullable Object> T executeAll(Collection<String> keys, Duration ttl, Duration waitTime,
			Supplier<T> action);

	/**
	 * Run the callback under the locks of several keys, taken all or none, and release
	 * them when it ends, under the release policy described {@link LockOperations above}.
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
	 */
	<T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback) throws E;

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
	 */
	<T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback, LockBusyCallback<T, E> whenBusy) throws E;

	/**
	 * Run asynchronous work under the lock of the request: take the lock on the calling
	 * thread, call the action, and hold the lock (renewed, also after the calling thread
	 * ended) until the stage it returns completes; then release it. Locking failures
	 * (busy, backend, interrupt) fail the returned stage, never thrown. Cancelling the
	 * returned stage cancels the action's stage, and the lock is released once that one
	 * completed. The handle is bound to the calling thread only while the action is
	 * called: pass {@code lock.fencingToken()} on, and stop the work on
	 * {@link LockHandle#whenLost()}.
	 * @param <T> the type of the work's result
	 * @param <E> the type of exception the action may throw
	 * @param request what to lock and how
	 * @param action starts the work under the held lock and returns its stage; a
	 * {@code null} stage counts as completed at once
	 * @return a stage completed with the work's outcome after the lock was released
	 * @throws E what the action threw before returning a stage (after the release)
	 */
	<T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action) throws E;

	/**
	 * Run asynchronous work as {@link #executeAsync(LockRequest, LockCallback)} does, or
	 * answer a busy lock with the busy callback's stage.
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
	<T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action,
			LockBusyCallback<? extends @Nullable CompletionStage<T>, E> whenBusy) throws E;

	/**
	 * Return the lock on the given key that the current thread holds through an enclosing
	 * call of this template, or of another on the same
	 * {@link io.distlock.store.LockClient} instance and key prefix: the lock that a
	 * nested call for the key re-enters ({@link LockContext#find} finds those of other
	 * stores too).
	 * @param key the lock key, without the key prefix
	 * @return the bound lock, or {@code null} if a call for the key would take the lock
	 */
	@Nullable LockHandle findBoundLock(String key);

}
