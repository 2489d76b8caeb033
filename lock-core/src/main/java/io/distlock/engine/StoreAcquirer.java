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
import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.FairLockClient;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * Takes a lock for one caller, waiting while it is busy: between attempts the caller is
 * parked by the {@link LockWaiter} until the lock is released, the holder's lease may
 * have run out, or a bounded backoff passed; it gives up at its wait time.
 *
 * <p>
 * In fair mode every attempt keeps the caller's place in the store's queue, and a caller
 * that gives up or is interrupted leaves the queue, so it does not hold up the waiters
 * behind it. Fair mode needs a store that is a {@link FairLockClient}.
 *
 * <p>
 * An attempt that fails (the store throws, or the thread is interrupted during the call)
 * may still have taken the lock on Redis, so the owner token is released, best effort,
 * before the failure is passed on.
 */
final class StoreAcquirer {

	// A fair waiter calls again at least every maximum backoff; the margin covers a slow
	// attempt or a pause of its JVM before its place is given up.
	private static final Duration QUEUE_MARGIN = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(StoreAcquirer.class);

	private final LockClient client;

	private final @Nullable FairLockClient fairClient;

	private final LockWaiter waiter;

	private final Duration queueTimeout;

	private final LockGiveBack giveBack;

	/**
	 * Create an acquirer over the given store, parking callers with the given waiter.
	 * @param client the lock store
	 * @param waiter the waiter that release notifications signal
	 */
	StoreAcquirer(LockClient client, LockWaiter waiter) {
		this(client, waiter, LockGiveBack.SHARED_EXECUTOR);
	}

	/**
	 * Create an acquirer that gives back what failed attempts may have taken on the given
	 * executor.
	 */
	StoreAcquirer(LockClient client, LockWaiter waiter, Executor giveBack) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		this.client = client;
		this.fairClient = (client instanceof FairLockClient fair) ? fair : null;
		this.waiter = waiter;
		this.queueTimeout = waiter.getMaxBackoff().plus(QUEUE_MARGIN);
		this.giveBack = new LockGiveBack(giveBack);
	}

	/**
	 * Return how long a fair waiter's place in the queue is kept without another attempt:
	 * the waiter's maximum backoff plus five seconds.
	 * @return the queue timeout of fair waiters
	 */
	Duration getQueueTimeout() {
		return this.queueTimeout;
	}

	/**
	 * Tell whether the store can take locks in arrival order.
	 * @return whether fair acquisitions are possible
	 */
	boolean supportsFair() {
		return this.fairClient != null;
	}

	/**
	 * Take the exclusive lock, as
	 * {@link #acquire(String, String, Duration, Duration, boolean, LockKind)} takes a
	 * key.
	 */
	Attempt acquire(String key, String ownerToken, Duration ttl, Duration waitTime, boolean fair)
			throws InterruptedException {
		return acquire(key, ownerToken, ttl, waitTime, fair, LockKind.exclusive(this.client));
	}

	/**
	 * Take the key the given way, waiting up to the given time while it is busy, as
	 * {@link #acquire(String, String, Duration, Duration, boolean)} does for the
	 * exclusive lock.
	 * @param key the resource name
	 * @param ownerToken the token of this acquisition
	 * @param ttl the lease time
	 * @param waitTime how long to wait; zero means try once
	 * @param fair whether to take the lock in arrival order (exclusive or write only)
	 * @param kind how the key is held
	 * @return the last attempt
	 * @throws InterruptedException if the thread was interrupted while waiting
	 */
	Attempt acquire(String key, String ownerToken, Duration ttl, Duration waitTime, boolean fair, LockKind kind)
			throws InterruptedException {
		Assert.isTrue(!fair || this.fairClient != null,
				() -> "Lock '" + key + "' was requested fair, but the lock store " + this.client.getClass().getName()
						+ " cannot take locks in arrival order (it is no FairLockClient)");
		if (waitTime.isZero()) {
			Attempt attempt = attempt(key, ownerToken, ttl, fair, Duration.ZERO, kind, false);
			stopWaiting(key, ownerToken, attempt.result());
			return Attempt.confirmed(key, attempt);
		}
		long deadline = Attempt.deadline(System.nanoTime(), waitTime);
		Attempt attempt = null;
		// Registered before the first attempt, so a release right after it is not missed.
		try (LockWaiter.Waiter waiting = this.waiter.register(fair ? ownerToken : key, key)) {
			attempt = attempt(key, ownerToken, ttl, fair, this.queueTimeout, kind, true);
			while (!(attempt.result() instanceof AcquireResult.Acquired) && deadline - System.nanoTime() > 0) {
				waiting.await(Attempt.retryNanos(attempt.result()), deadline);
				attempt = attempt(key, ownerToken, ttl, fair, this.queueTimeout, kind, true);
			}
			return Attempt.confirmed(key, attempt);
		}
		finally {
			if (attempt == null || attempt.result() instanceof AcquireResult.Busy) {
				if (fair) {
					leaveQueue(key, ownerToken);
				}
				if (attempt != null) {
					stopWaiting(key, ownerToken, attempt.result());
				}
			}
		}
	}

	/**
	 * Tell the store that a writer which found readers stopped trying: it keeps new
	 * readers out while it waits, and would go on doing so for as long as its marker
	 * lives. An owner-checked release of what it never got removes only its marker.
	 * Nothing to do, and no call, unless the store said the attempt left one.
	 * @param key the resource name
	 * @param ownerToken the token of the attempt that gave up
	 * @param result the last answer of the store
	 */
	void stopWaiting(String key, String ownerToken, AcquireResult result) {
		if (result instanceof AcquireResult.Busy busy && busy.keepsReadersOut()) {
			// Off the caller's path: a caller that gave up at its wait time must not wait
			// one more command timeout on a slow Redis. The marker is the write lock's.
			this.giveBack.releaseLater(key, ownerToken, LockKind.exclusive(this.client), "withdraw from",
					"giving up; readers may wait for the store's writer wait timeout");
		}
	}

	/**
	 * Try once to take the key the given way, without waiting and without a fair queue.
	 * @param key the resource name
	 * @param ownerToken the token of this acquisition
	 * @param ttl the lease time
	 * @param kind how the key is held
	 * @param waits whether the caller waits for the key if it is busy, so that the holder
	 * is told to wake it
	 * @return the attempt
	 * @throws InterruptedException if the thread was interrupted during the call
	 */
	Attempt tryOnce(String key, String ownerToken, Duration ttl, LockKind kind, boolean waits)
			throws InterruptedException {
		return Attempt.confirmed(key, attempt(key, ownerToken, ttl, false, Duration.ZERO, kind, waits));
	}

	/**
	 * Return the waiter that parks callers of busy locks.
	 * @return the waiter
	 */
	LockWaiter waiter() {
		return this.waiter;
	}

	private Attempt attempt(String key, String ownerToken, Duration ttl, boolean fair, Duration queueTimeout,
			LockKind kind, boolean waits) throws InterruptedException {
		long sentAt = System.nanoTime();
		try {
			return new Attempt(fair ? fairClient().tryAcquireFair(key, ownerToken, ttl, queueTimeout)
					: kind.tryAcquire(key, ownerToken, ttl, waits), sentAt);
		}
		catch (RuntimeException ex) {
			// An interrupt makes the Redis client abandon the call; that is the interrupt
			// of the wait, not a broken backend.
			boolean interrupted = Thread.interrupted();
			this.giveBack.releaseLater(key, ownerToken, kind, "give back",
					"a failed attempt (" + ex + "); it expires after its ttl");
			if (interrupted) {
				InterruptedException interruptedException = new InterruptedException();
				interruptedException.initCause(ex);
				throw interruptedException;
			}
			throw ex;
		}
	}

	private void leaveQueue(String key, String ownerToken) {
		// The interrupt is held back, since the Redis client refuses to call while it is
		// set.
		boolean interrupted = Thread.interrupted();
		try {
			fairClient().leaveQueue(key, ownerToken);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not leave the queue of lock '" + key + "'; the place is given up after "
					+ this.queueTimeout.toMillis() + "ms", ex);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private FairLockClient fairClient() {
		Assert.state(this.fairClient != null, "No fair lock store");
		return this.fairClient;
	}

}
