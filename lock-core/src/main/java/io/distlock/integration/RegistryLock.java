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

package io.distlock.integration;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockOperations;
import io.distlock.LockRequest;

import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.util.Assert;

/**
 * The {@link DistributedLock} of one key of a {@link DistlockLockRegistry}: a local
 * re-entrant lock, so that one thread of this application holds it at a time and
 * re-enters it, and the distlock lock that the outermost hold takes and releases (an
 * {@link OuterHold}). A re-entry never takes another distlock lock: the outer hold keeps
 * its handle, and its final unlock reports a loss.
 */
final class RegistryLock implements DistributedLock {

	// lock() and lockInterruptibly() wait in rounds of this long, without end.
	private static final Duration WAIT_ROUND = Duration.ofDays(1);

	private final LockOperations locks;

	private final String key;

	private final String name;

	private final Duration ttl;

	private final Clock clock;

	private final ReentrantLock local = new ReentrantLock();

	// Read and written by the thread holding the local lock.
	private volatile @Nullable OuterHold hold;

	private volatile long lastUsed;

	RegistryLock(LockOperations locks, String key, String name, Duration ttl, Clock clock) {
		// Fails for a key that cannot be a lock key, when obtained rather than when
		// locked.
		request(key, name, Duration.ZERO, ttl);
		this.locks = locks;
		this.key = key;
		this.name = name;
		this.ttl = ttl;
		this.clock = clock;
	}

	@Override
	public void lock() {
		lock(this.ttl);
	}

	@Override
	public void lock(Duration ttl) {
		boolean interrupted = false;
		while (true) {
			try {
				if (tryLock(WAIT_ROUND, ttl)) {
					break;
				}
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		while (!tryLock(WAIT_ROUND, this.ttl)) {
			// Wait on.
		}
	}

	@Override
	public boolean tryLock() {
		try {
			return tryLock(Duration.ZERO, this.ttl);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return tryLock(Duration.ofNanos(Math.max(0, unit.toNanos(time))), this.ttl);
	}

	@Override
	public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
		Assert.isTrue(waitTime != null && !waitTime.isNegative(),
				() -> "'waitTime' must not be negative but was " + waitTime);
		Assert.notNull(ttl, "'ttl' must not be null");
		try {
			if (this.local.isHeldByCurrentThread()) {
				reenter();
				return true;
			}
			long start = System.nanoTime();
			if (!this.local.tryLock(waitTime.toNanos(), TimeUnit.NANOSECONDS)) {
				return false;
			}
			boolean acquired = false;
			try {
				Duration left = waitTime.minusNanos(System.nanoTime() - start);
				acquired = hold(acquire(left.isNegative() ? Duration.ZERO : left, ttl));
				return acquired;
			}
			finally {
				if (!acquired) {
					this.local.unlock();
				}
			}
		}
		finally {
			touch();
		}
	}

	// A re-entry asks Redis whether the lock is still held, as Spring Integration's
	// registries do: its leader initiator re-enters at each heartbeat to learn that. It
	// never takes the lock again: the outer section, still running, would be handed a
	// new fencing token, and its unlock could no longer report the loss. It fails
	// instead, as a distlock re-entry does; the leader initiator then unlocks, hears of
	// the loss, and contends anew.
	private void reenter() {
		OuterHold held = this.hold;
		Assert.state(held != null, () -> "The lock '" + this.key + "' is held by this thread without a handle");
		// Through the engine's re-entry, which refuses a lock whose lease ran out.
		this.locks.execute(request(this.key, this.name, Duration.ZERO, this.ttl), (lock) -> Boolean.TRUE);
		held.checkHeld();
		this.local.lock();
	}

	private @Nullable LockHandle acquire(Duration waitTime, Duration ttl) throws InterruptedException {
		try {
			return this.locks.tryAcquire(request(this.key, this.name, waitTime, ttl)).orElse(null);
		}
		catch (LockAcquisitionException ex) {
			if (ex.getCause() instanceof InterruptedException) {
				// Thrown with the interrupt kept, which an InterruptedException clears.
				Thread.interrupted();
				InterruptedException interrupted = new InterruptedException(ex.getMessage());
				interrupted.initCause(ex);
				throw interrupted;
			}
			throw ex;
		}
	}

	private static LockRequest request(String key, String name, Duration waitTime, Duration ttl) {
		return LockRequest.builder(key).ttl(ttl).waitTime(waitTime).name(name).build();
	}

	private boolean hold(@Nullable LockHandle acquired) {
		if (acquired == null) {
			return false;
		}
		this.hold = new OuterHold(this.key, acquired);
		return true;
	}

	@Override
	public void unlock() {
		Assert.state(this.local.isHeldByCurrentThread(),
				() -> "The current thread does not hold the lock '" + this.key + "'");
		try {
			if (this.local.getHoldCount() > 1) {
				return;
			}
			OuterHold held = this.hold;
			this.hold = null;
			if (held == null) {
				throw OuterHold.lostBeforeUnlock(this.key);
			}
			held.release();
		}
		finally {
			this.local.unlock();
			touch();
		}
	}

	void renew(Duration ttl) {
		Assert.state(this.local.isHeldByCurrentThread(),
				() -> "The current thread does not hold the lock '" + this.key + "'");
		OuterHold held = this.hold;
		Assert.state(held != null, () -> "The lock '" + this.key + "' was lost: it cannot be renewed");
		held.renew(ttl);
	}

	boolean isLocked() {
		return this.local.isLocked();
	}

	long lastUsed() {
		return this.lastUsed;
	}

	void touch() {
		this.lastUsed = this.clock.millis();
	}

	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("The locks of DistlockLockRegistry have no conditions");
	}

	@Override
	public String toString() {
		return "DistlockLockRegistry.Lock[key='" + this.key + "', "
				+ (this.local.isLocked() ? "held by this application" : "not held by this application") + "]";
	}

}
