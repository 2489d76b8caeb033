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

package io.distlock.test.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.store.AcquireResult;
import io.distlock.store.FairLockClient;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockClient;
import io.distlock.store.LockHolder;
import io.distlock.store.LockState;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;
import io.distlock.test.memory.KeyState.Lease;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * A {@link LockClient} that keeps its locks in this JVM's memory, for tests that need no
 * Redis: exclusive, fair, read/write and permit locks, inspection and forced release,
 * with the behaviour the {@code lock-test-support} contract suites check on Redis.
 *
 * <p>
 * It is a test double and nothing more: locks are shared only between the threads of one
 * JVM, so two instances of an application would both "hold" the same lock. That is why it
 * lives in the test-scoped {@code lock-spring-boot-test} artifact and is never
 * auto-configured without a test asking for it with
 * {@link io.distlock.test.autoconfigure.AutoConfigureInMemoryLocks
 * &#64;AutoConfigureInMemoryLocks}.
 * <p>
 * Leases expire by the given {@link Clock}, read at every call: a test that passes a
 * clock it can move makes a lease run out without sleeping. Fencing tokens of a key
 * strictly increase across the exclusive lock and its permits and survive releases and
 * expiry. Releases wake the local waiters of the {@link #setLockWaiter(LockWaiter) lock
 * waiter}, as Redis release notifications do.
 *
 * @see io.distlock.test.autoconfigure.AutoConfigureInMemoryLocks
 */
public class InMemoryLockClient
		implements FairLockClient, ReadWriteLockClient, PermitLockClient, InspectableLockClient {

	/**
	 * How long a writer's mark keeps new readers out after its last attempt.
	 */
	static final Duration WRITER_MARK_TTL = Duration.ofSeconds(1);

	private static final String PERMIT_LEASE_PREFIX = "\u0000permits:";

	private static final Log logger = LogFactory.getLog(InMemoryLockClient.class);

	private final Clock clock;

	private final Map<String, KeyState> keys = new HashMap<>();

	private volatile @Nullable LockWaiter waiter;

	/**
	 * Create a store whose leases expire by the system clock.
	 */
	public InMemoryLockClient() {
		this(Clock.systemUTC());
	}

	/**
	 * Create a store whose leases expire by the given clock.
	 * @param clock the clock that times leases, read at every call
	 */
	public InMemoryLockClient(Clock clock) {
		Assert.notNull(clock, "'clock' must not be null");
		this.clock = clock;
		logger.info("Locks are held in memory by the test lock store: they exclude threads of this JVM only");
	}

	/**
	 * Set the waiter to wake when a lock, read hold or permit is released; the one the
	 * {@link io.distlock.LockTemplate} parks its callers with.
	 * @param waiter the lock waiter, or {@code null} to wake nobody
	 */
	public void setLockWaiter(@Nullable LockWaiter waiter) {
		this.waiter = waiter;
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			KeyState state = state(key, now);
			if (state.exclusive != null) {
				return new AcquireResult.Busy(KeyState.remaining(now, state.exclusive.expiresAt()), false,
						LockHolder.ofOwnerToken(state.exclusive.ownerToken()));
			}
			if (!state.readers.isEmpty()) {
				return writerBusy(state, ownerToken, now);
			}
			state.waitingWriter = null;
			return take(state, ownerToken, ttl, now);
		}
	}

	/**
	 * A writer that finds readers marks the key so that no new reader gets in while it
	 * keeps trying; its busy answer tells it to come back before the mark runs out.
	 */
	private AcquireResult writerBusy(KeyState state, String ownerToken, Instant now) {
		Instant latest = KeyState.latest(state.readers);
		Duration readersLeft = KeyState.remaining(now, latest);
		LockHolder reader = KeyState.holderUntil(state.readers, latest);
		Lease mark = state.waitingWriter;
		if (mark != null && !mark.ownerToken().equals(ownerToken)) {
			return new AcquireResult.Busy(readersLeft, false, reader);
		}
		state.waitingWriter = new Lease(ownerToken, now.plus(WRITER_MARK_TTL), 0);
		Duration retry = WRITER_MARK_TTL.dividedBy(2);
		return new AcquireResult.Busy((readersLeft.compareTo(retry) < 0) ? readersLeft : retry, true, reader);
	}

	private AcquireResult take(KeyState state, String ownerToken, Duration ttl, Instant now) {
		long token = state.nextFencingToken();
		state.exclusive = new Lease(ownerToken, now.plus(ttl), token);
		return new AcquireResult.Acquired(token);
	}

	@Override
	public AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			KeyState state = state(key, now);
			String first = state.firstInQueue();
			if (state.isFree() && (first == null || first.equals(ownerToken))) {
				state.fairQueue.remove(ownerToken);
				return take(state, ownerToken, ttl, now);
			}
			if (queueTimeout.toNanos() > 0) {
				// Keeping a place keeps its position: replace leaves insertion order
				// alone.
				state.fairQueue.put(ownerToken, now.plus(queueTimeout));
			}
			if (state.exclusive != null) {
				return new AcquireResult.Busy(KeyState.remaining(now, state.exclusive.expiresAt()), false,
						LockHolder.ofOwnerToken(state.exclusive.ownerToken()));
			}
			if (!state.readers.isEmpty()) {
				Instant latest = KeyState.latest(state.readers);
				return new AcquireResult.Busy(KeyState.remaining(now, latest), false,
						KeyState.holderUntil(state.readers, latest));
			}
			// Free, but not the caller's turn: the first in the queue keeps its place.
			Instant firstUntil = state.fairQueue.get(first);
			Assert.state(firstUntil != null, "A free key that is not the caller's turn has a first in its queue");
			return new AcquireResult.Busy(KeyState.remaining(now, firstUntil));
		}
	}

	@Override
	public boolean leaveQueue(String key, String ownerToken) {
		String next;
		synchronized (this.keys) {
			KeyState state = state(key, this.clock.instant());
			boolean wasFirst = ownerToken.equals(state.firstInQueue());
			if (state.fairQueue.remove(ownerToken) == null) {
				return false;
			}
			next = wasFirst ? state.firstInQueue() : null;
		}
		if (next != null) {
			signal(next);
		}
		return true;
	}

	@Override
	public AcquireResult tryAcquireRead(String key, String ownerToken, Duration ttl) {
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			KeyState state = state(key, now);
			if (state.exclusive != null) {
				return new AcquireResult.Busy(KeyState.remaining(now, state.exclusive.expiresAt()), false,
						LockHolder.ofOwnerToken(state.exclusive.ownerToken()));
			}
			if (state.waitingWriter != null) {
				return new AcquireResult.Busy(KeyState.remaining(now, state.waitingWriter.expiresAt()), false,
						LockHolder.ofOwnerToken(state.waitingWriter.ownerToken()));
			}
			state.readers.put(ownerToken, now.plus(ttl));
			// A token of its own, as the Redis store hands out.
			return new AcquireResult.Acquired(state.nextFencingToken());
		}
	}

	@Override
	public boolean releaseRead(String key, String ownerToken) {
		boolean last;
		synchronized (this.keys) {
			KeyState state = state(key, this.clock.instant());
			if (state.readers.remove(ownerToken) == null) {
				return false;
			}
			last = state.readers.isEmpty();
		}
		if (last) {
			signal(key);
		}
		return true;
	}

	@Override
	public AcquireResult tryAcquirePermit(String key, String ownerToken, Duration ttl, int permits) {
		Assert.isTrue(permits >= 1, () -> "'permits' must be at least 1 but was " + permits);
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			KeyState state = state(key, now);
			if (state.permits.size() >= permits || state.permits.containsKey(ownerToken)) {
				Instant earliest = KeyState.earliest(state.permits);
				return new AcquireResult.Busy(KeyState.remaining(now, earliest), false,
						KeyState.holderUntil(state.permits, earliest));
			}
			state.permits.put(ownerToken, now.plus(ttl));
			return new AcquireResult.Acquired(state.nextFencingToken());
		}
	}

	@Override
	public boolean releasePermit(String key, String ownerToken) {
		synchronized (this.keys) {
			if (state(key, this.clock.instant()).permits.remove(ownerToken) == null) {
				return false;
			}
		}
		signal(key);
		return true;
	}

	@Override
	public String permitLeaseKey(String key) {
		return PERMIT_LEASE_PREFIX + key;
	}

	@Override
	public boolean release(String key, String ownerToken) {
		if (key.startsWith(PERMIT_LEASE_PREFIX)) {
			return releasePermit(key.substring(PERMIT_LEASE_PREFIX.length()), ownerToken);
		}
		String wake;
		synchronized (this.keys) {
			KeyState state = state(key, this.clock.instant());
			if (!state.isExclusiveHolder(ownerToken)) {
				// A writer that gave up withdraws its mark with the same call.
				if (state.waitingWriter != null && state.waitingWriter.ownerToken().equals(ownerToken)) {
					state.waitingWriter = null;
				}
				return false;
			}
			state.exclusive = null;
			String first = state.firstInQueue();
			wake = (first != null) ? first : key;
		}
		signal(wake);
		return true;
	}

	@Override
	public boolean renew(String key, String ownerToken, Duration ttl) {
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			if (key.startsWith(PERMIT_LEASE_PREFIX)) {
				return renew(state(key.substring(PERMIT_LEASE_PREFIX.length()), now).permits, ownerToken,
						now.plus(ttl));
			}
			KeyState state = state(key, now);
			Lease exclusive = state.exclusive;
			if (exclusive != null && exclusive.ownerToken().equals(ownerToken)) {
				state.exclusive = exclusive.renewedUntil(now.plus(ttl));
				return true;
			}
			return renew(state.readers, ownerToken, now.plus(ttl));
		}
	}

	private static boolean renew(Map<String, Instant> leases, String ownerToken, Instant expiresAt) {
		return leases.computeIfPresent(ownerToken, (owner, previous) -> expiresAt) != null;
	}

	@Override
	public boolean isHeld(String key, String ownerToken) {
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			if (key.startsWith(PERMIT_LEASE_PREFIX)) {
				return state(key.substring(PERMIT_LEASE_PREFIX.length()), now).permits.containsKey(ownerToken);
			}
			KeyState state = state(key, now);
			return state.isExclusiveHolder(ownerToken) || state.readers.containsKey(ownerToken);
		}
	}

	@Override
	public LockState inspect(String key) {
		synchronized (this.keys) {
			Instant now = this.clock.instant();
			KeyState state = state(key, now);
			Long lastToken = (state.lastFencingToken > 0) ? state.lastFencingToken : null;
			Lease exclusive = state.exclusive;
			if (exclusive == null) {
				return new LockState(false, null, lastToken, state.fairQueue.size(), null, state.readers.size(),
						state.permits.size(), state.holdings(now));
			}
			// Named by its fencing token, which tells acquisitions apart without
			// revealing
			// the owner token.
			return new LockState(true, KeyState.remaining(now, exclusive.expiresAt()), lastToken,
					state.fairQueue.size(), "acquisition-" + exclusive.fencingToken(), state.readers.size(),
					state.permits.size(), state.holdings(now));
		}
	}

	@Override
	public boolean forceRelease(String key) {
		List<String> wake = new ArrayList<>();
		synchronized (this.keys) {
			KeyState state = state(key, this.clock.instant());
			boolean held = !state.isFree() || !state.permits.isEmpty();
			boolean marked = state.waitingWriter != null;
			state.exclusive = null;
			state.waitingWriter = null;
			state.readers.clear();
			state.permits.clear();
			if (!held && !marked) {
				return false;
			}
			wake.add(key);
			String first = state.firstInQueue();
			if (first != null) {
				wake.add(first);
			}
		}
		wake.forEach(this::signal);
		return true;
	}

	/**
	 * Return the key's state with everything that ran out removed; the state of a key is
	 * never dropped, since its fencing counter must outlive its locks.
	 */
	private KeyState state(String key, Instant now) {
		KeyState state = this.keys.computeIfAbsent(key, (k) -> new KeyState());
		state.expire(now);
		return state;
	}

	private void signal(String key) {
		LockWaiter waiter = this.waiter;
		if (waiter != null) {
			waiter.signal(key);
		}
	}

	@Override
	public String toString() {
		return "InMemoryLockClient (test lock store, locks shared within this JVM only)";
	}

}
