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

import java.util.List;
import java.util.function.Consumer;

import io.distlock.store.FairLockClient;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockState;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;

/**
 * What operators and the framework ask of a lock engine, beside taking locks: its
 * statistics, the locks it holds and the callers that wait, the store's capabilities,
 * inspection and forced release, and the release of everything on shutdown. Used by the
 * {@code locks} endpoint, the health indicator, graceful shutdown and the check of the
 * store's capabilities at startup; application code takes locks through
 * {@link LockOperations}.
 *
 * @see io.distlock.engine.LockEngine
 */
public interface LockAdministration {

	/**
	 * Return the settings of the engine: its key prefix and instance name among them.
	 * @return the settings
	 */
	LockSettings getSettings();

	/**
	 * Return a read-only view of the counts of what happened to this template's locks.
	 * @return the statistics
	 */
	LockStatistics getStatistics();

	/**
	 * Return the locks held now through every front door of this engine (this template, a
	 * reactive template and leader election on them), taken by any thread and not yet
	 * released, for the {@code locks} endpoint and for shutdown.
	 * @return a snapshot of the held locks, oldest first
	 */
	List<HeldLock> getHeldLocks();

	/**
	 * Return the callers of every front door of this engine that wait for a lock now:
	 * from the first attempt of an acquisition with a wait time until it returns, for the
	 * {@code locks} endpoint. How much callers waited for each lock name is in
	 * {@code getSettings().getWaitingLocks()}.
	 * @return a snapshot of the waiting callers, longest waiting first
	 */
	List<WaitingLock> getWaitingLocks();

	/**
	 * Release every lock held now through the front doors of this engine, owner-checked,
	 * as on shutdown: the code still running under one of them is no longer protected by
	 * it, and is told so first: the {@link LockHandle#whenLost()} of each lock completes
	 * before its release, and a WARN names it. A release that fails is logged; that lock
	 * then expires after its ttl, since it is no longer renewed.
	 * @return how many locks were released
	 */
	int releaseHeldLocks();

	/**
	 * Tell whether the store takes locks in arrival order, as fair requests need.
	 * @return whether the store is a {@link FairLockClient}
	 */
	boolean supportsFairLocks();

	/**
	 * Tell whether the store holds keys for reading, as {@link LockMode#READ} needs.
	 * @return whether the store is a {@link ReadWriteLockClient}
	 */
	boolean supportsReadLocks();

	/**
	 * Tell whether the store hands out a key as permits, as permits above 1 need.
	 * @return whether the store is a {@link PermitLockClient}
	 */
	boolean supportsPermits();

	/**
	 * Ask the lock store what it knows of the lock of the given key right now: whether it
	 * is held, for how much longer, the last fencing token handed out and how many fair
	 * waiters queue for it. The holder's owner token is never part of the answer.
	 * @param key the lock key, without the key prefix
	 * @return the lock's state
	 * @throws IllegalArgumentException if the key is invalid
	 * @throws UnsupportedOperationException if the store is no
	 * {@link InspectableLockClient}
	 */
	LockState inspect(String key);

	/**
	 * Remove the lock of the given key whoever holds it, and wake its waiters; the next
	 * holder gets a greater fencing token, as always. This breaks mutual exclusion on
	 * purpose: the removed holder may still be working. A holder of this engine has its
	 * {@link LockHandle#whenLost()} completed at once, before the removal; a holder
	 * elsewhere learns of the loss when it next renews or releases the lock.
	 * @param key the lock key, without the key prefix
	 * @return {@code true} if a lock was removed, {@code false} if the key was not held
	 * @throws IllegalArgumentException if the key is invalid
	 * @throws UnsupportedOperationException if the store is no
	 * {@link InspectableLockClient}
	 */
	boolean forceRelease(String key);

	/**
	 * Return the lock names that callers waited for the longest in total since the start,
	 * most waited on first.
	 * @param limit how many names at most
	 * @return the most waited-on lock names
	 */
	List<WaitedOnLock> getMostWaitedOnLocks(int limit);

	/**
	 * Return how many callers wait now for a lock of the given name.
	 * @param name a lock name, empty for unnamed locks
	 * @return the number of waiting callers
	 */
	int getWaitingCount(String name);

	/**
	 * Call the given listener with each lock name that callers have waited for, now and
	 * whenever one is waited for the first time: for a gauge per name. Past 500 names,
	 * further ones are counted under {@code (other)}.
	 * @param listener called with each name, empty for unnamed locks
	 */
	void forEachWaitedOnName(Consumer<String> listener);

}
