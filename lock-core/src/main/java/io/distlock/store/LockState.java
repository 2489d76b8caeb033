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

package io.distlock.store;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What a lock store knows of one lock at the moment it was asked, as
 * {@link InspectableLockClient#inspect} answers it.
 *
 * <p>
 * It never holds the holder's owner token: knowing that token would let the reader
 * release or renew the lock. The holder is named by a digest of it instead, which tells
 * two acquisitions apart and nothing more.
 *
 * @param held whether the lock is held by anyone
 * @param remainingLease how long the holder's lease still runs, or {@code null} when the
 * lock is not held or is held without expiry (its key was set by something other than
 * distlock)
 * @param lastFencingToken the last fencing token the store handed out for the key, also
 * after the lock was released, or {@code null} when its counter is gone (never used, or
 * expired after its retention); the next holder gets a greater token either way
 * @param fairWaiters how many fair waiters keep a place in the lock's queue; {@code 0}
 * for a store without fair locks
 * @param holder an opaque name of the acquisition holding the lock, the same for as long
 * as that acquisition holds it and different for the next one; {@code null} when the lock
 * is not held, or when its key holds no owner token
 * @param readHolds how many read holds the key has now, expired ones not counted; read
 * holds do not make the lock {@code held}, which is about the exclusive (write) lock
 * alone; {@code 0} for a store without read/write locks
 * @param permitHolders how many owners hold one of the key's permits now, expired leases
 * not counted; permits are independent of the exclusive lock, so they do not make it
 * {@code held} either; {@code 0} for a store without permits
 * @param holdings who holds the key, each with the description the holder left (see
 * {@link LockHolder}): the exclusive holder first, then read holds and permit holders,
 * those whose lease ends first, as many as the store lists; empty for a store that does
 * not describe holders
 * @see InspectableLockClient
 */
public record LockState(boolean held, @Nullable Duration remainingLease, @Nullable Long lastFencingToken,
		int fairWaiters, @Nullable String holder, int readHolds, int permitHolders, List<Holding> holdings) {

	/**
	 * Create a state, checking that a free lock has neither lease nor holder.
	 * @param held whether the lock is held by anyone
	 * @param remainingLease how long the holder's lease still runs, if known
	 * @param lastFencingToken the last fencing token handed out, if known
	 * @param fairWaiters how many fair waiters queue for the lock
	 * @param holder the opaque name of the holding acquisition, if held
	 * @param readHolds how many read holds the key has now
	 * @param permitHolders how many owners hold one of the key's permits now
	 * @param holdings who holds the key
	 */
	public LockState {
		Assert.isTrue(fairWaiters >= 0, () -> "'fairWaiters' must not be negative but was " + fairWaiters);
		Assert.isTrue(readHolds >= 0, () -> "'readHolds' must not be negative but was " + readHolds);
		Assert.isTrue(permitHolders >= 0, () -> "'permitHolders' must not be negative but was " + permitHolders);
		Assert.isTrue(held || (remainingLease == null && holder == null),
				"A lock that is not held has neither a remaining lease nor a holder");
		holdings = List.copyOf(holdings);
	}

	/**
	 * Create a state that lists no holdings, as a store that does not describe holders
	 * reports it.
	 * @param held whether the lock is held by anyone
	 * @param remainingLease how long the holder's lease still runs, if known
	 * @param lastFencingToken the last fencing token handed out, if known
	 * @param fairWaiters how many fair waiters queue for the lock
	 * @param holder the opaque name of the holding acquisition, if held
	 * @param readHolds how many read holds the key has now
	 * @param permitHolders how many owners hold one of the key's permits now
	 */
	public LockState(boolean held, @Nullable Duration remainingLease, @Nullable Long lastFencingToken, int fairWaiters,
			@Nullable String holder, int readHolds, int permitHolders) {
		this(held, remainingLease, lastFencingToken, fairWaiters, holder, readHolds, permitHolders, List.of());
	}

	/**
	 * Create the state of a key without read holds or permits, as a store that has
	 * neither reports it.
	 * @param held whether the lock is held by anyone
	 * @param remainingLease how long the holder's lease still runs, if known
	 * @param lastFencingToken the last fencing token handed out, if known
	 * @param fairWaiters how many fair waiters queue for the lock
	 * @param holder the opaque name of the holding acquisition, if held
	 */
	public LockState(boolean held, @Nullable Duration remainingLease, @Nullable Long lastFencingToken, int fairWaiters,
			@Nullable String holder) {
		this(held, remainingLease, lastFencingToken, fairWaiters, holder, 0, 0, List.of());
	}

	/**
	 * One holding of the key: the exclusive (write) lock, a read hold or a permit.
	 *
	 * @param kind what is held
	 * @param id the opaque name of the acquisition, as {@link LockState#holder()} names
	 * the exclusive one
	 * @param holder the description the holder left, or {@code null} when its owner token
	 * carries none
	 * @param remainingLease how long its lease still runs, or {@code null} when it has no
	 * expiry
	 */
	public record Holding(Kind kind, String id, @Nullable LockHolder holder, @Nullable Duration remainingLease) {

	}

	/**
	 * What a {@link Holding} holds.
	 */
	public enum Kind {

		/**
		 * The exclusive lock, which is also the write lock of a read/write key.
		 */
		EXCLUSIVE,

		/**
		 * A read hold, shared with the key's other readers.
		 */
		READ,

		/**
		 * One of the key's permits.
		 */
		PERMIT

	}

}
