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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.util.Assert;

import io.distlock.LockOperations;
import io.distlock.LockRequest;

/**
 * A Spring Integration lock registry on distlock: {@link #obtain(Object)} gives a
 * {@link DistributedLock} per key, held in distlock's store with its fencing tokens,
 * metrics and locks endpoint, for {@code LockRegistryLeaderInitiator}, aggregators,
 * {@code executeLocked} and any code written for a {@code LockRegistry}.
 *
 * <p>
 * Its locks behave as those of Spring Integration's own registries:
 * <ul>
 * <li>re-entrant for the holding thread, and held by one thread of this application at a
 * time; a re-entrant acquisition asks Redis whether the lock is still held. It never
 * takes the lock again: if the lock is known lost, its lease ran out by the renewer's
 * clock, or Redis no longer holds it, the re-entrant {@code lock()} or {@code tryLock()}
 * throws a {@link io.distlock.LockAcquisitionException}, the outer hold keeps its lock
 * and fencing token, and its final unlock reports the loss (Spring Integration's
 * {@code LockRegistryLeaderInitiator} then unlocks, is revoked, and contends anew);</li>
 * <li>unlocked only by the holding thread (others get an {@link IllegalStateException});
 * the unlock of a lock known lost (its renewal found it gone or taken) throws a
 * {@link java.util.ConcurrentModificationException}, after letting it go; one whose loss
 * the unlock itself finds is logged at WARN, as every distlock release that finds its
 * lock expired;</li>
 * <li>leased for the registry's ttl ({@code distlock.default-ttl} when auto-configured)
 * or the ttl given to {@link DistributedLock#lock(Duration)}, and renewed by distlock's
 * watchdog while held, so that a lock expires a ttl after its holder died, not while it
 * works; {@link #renewLock(Object, Duration)} sets the lease once more,
 * owner-checked;</li>
 * <li>{@code newCondition()} is not supported.</li>
 * </ul>
 * While a thread holds a lock, the lock is bound to it:
 * {@link io.distlock.LockContext#current()} returns its handle, for its fencing token or
 * a {@code JdbcFence.check}.
 *
 * <p>
 * Keys are strings; a registry key, if given, is put before each one with a colon, as
 * Spring Integration's {@code RedisLockRegistry} does, so that registries of different
 * keys never share a lock.
 */
public class DistlockLockRegistry
		implements ExpirableLockRegistry<DistributedLock>, RenewableLockRegistry<DistributedLock> {

	/**
	 * The lock name under which this registry's locks appear in metrics and events,
	 * whatever their keys: keys (an aggregator's group ids) are too many for a metric
	 * tag.
	 */
	public static final String LOCK_NAME = "spring-integration";

	private final LockOperations locks;

	private final String registryKey;

	private final Duration ttl;

	private final Clock clock;

	private final Map<String, RegistryLock> obtained = new ConcurrentHashMap<>();

	/**
	 * Create a registry with no registry key, whose locks are leased for the given ttl.
	 * @param locks the lock operations, a {@link io.distlock.LockTemplate}
	 * @param ttl the lease of a lock, renewed while held; at least
	 * {@link LockRequest#MIN_RENEWED_TTL}
	 */
	public DistlockLockRegistry(LockOperations locks, Duration ttl) {
		this(locks, "", ttl);
	}

	/**
	 * Create a registry whose keys are put after the given registry key and a colon.
	 * @param locks the lock operations, a {@link io.distlock.LockTemplate}
	 * @param registryKey the registry key, empty for none
	 * @param ttl the lease of a lock, renewed while held; at least
	 * {@link LockRequest#MIN_RENEWED_TTL}
	 */
	public DistlockLockRegistry(LockOperations locks, String registryKey, Duration ttl) {
		this(locks, registryKey, ttl, Clock.systemUTC());
	}

	DistlockLockRegistry(LockOperations locks, String registryKey, Duration ttl, Clock clock) {
		Assert.notNull(locks, "'locks' must not be null");
		Assert.notNull(registryKey, "'registryKey' must not be null");
		// Its locks are renewed while held: no shorter lease than renewal can keep.
		Assert.isTrue(
				ttl != null && ttl.compareTo(LockRequest.MIN_RENEWED_TTL) >= 0
						&& ttl.compareTo(LockRequest.MAX_TTL) <= 0,
				() -> "'ttl' must be between " + LockRequest.MIN_RENEWED_TTL.toMillis() + "ms (the shortest lease "
						+ "that renewal can keep) and " + LockRequest.MAX_TTL.toDays() + " days but was " + ttl);
		this.locks = locks;
		this.registryKey = registryKey;
		this.ttl = ttl;
		this.clock = clock;
	}

	/**
	 * Return the lock of the given key: the same lock for the same key, until it is
	 * expired by {@link #expireUnusedOlderThan(long)}.
	 * @param lockKey the key, a {@link String}
	 * @return the lock
	 * @throws IllegalArgumentException if the key is not a string, or not a valid lock
	 * key
	 */
	@Override
	public DistributedLock obtain(Object lockKey) {
		Assert.isInstanceOf(String.class, lockKey, "DistlockLockRegistry.obtain(lockKey) takes String keys");
		String key = this.registryKey.isEmpty() ? (String) lockKey : this.registryKey + ":" + lockKey;
		RegistryLock lock = this.obtained.computeIfAbsent(key,
				(k) -> new RegistryLock(this.locks, k, LOCK_NAME, this.ttl, this.clock));
		lock.touch();
		return lock;
	}

	/**
	 * Forget the locks that nobody holds and that were last obtained, locked or unlocked
	 * more than the given age ago; they are created anew when obtained again.
	 * @param age the age in milliseconds
	 */
	@Override
	public void expireUnusedOlderThan(long age) {
		long now = this.clock.millis();
		this.obtained.values().removeIf((lock) -> !lock.isLocked() && now - lock.lastUsed() > age);
	}

	/**
	 * Set the lease of a lock the current thread holds to the registry's ttl from now.
	 * @param lockKey the key given to {@link #obtain(Object)}
	 * @throws IllegalStateException if the current thread does not hold the lock, or it
	 * was lost
	 */
	@Override
	public void renewLock(Object lockKey) {
		renewLock(lockKey, this.ttl);
	}

	/**
	 * Set the lease of a lock the current thread holds to the given time from now,
	 * owner-checked in Redis. distlock's watchdog renews held locks in any case; this
	 * sets the lease once, and the next renewal sets it back to the renewal's.
	 * @param lockKey the key given to {@link #obtain(Object)}
	 * @param ttl the new lease
	 * @throws IllegalStateException if the current thread does not hold the lock, or it
	 * was lost
	 */
	@Override
	public void renewLock(Object lockKey, Duration ttl) {
		Assert.isInstanceOf(String.class, lockKey, "DistlockLockRegistry.renewLock(lockKey) takes String keys");
		String key = this.registryKey.isEmpty() ? (String) lockKey : this.registryKey + ":" + lockKey;
		RegistryLock lock = this.obtained.get(key);
		Assert.state(lock != null, () -> "No lock of key '" + key + "' was obtained from this registry");
		lock.renew(ttl);
	}

	/**
	 * Do nothing: distlock's own watchdog renews held locks.
	 * @param taskScheduler ignored
	 */
	@Override
	public void setRenewalTaskScheduler(TaskScheduler taskScheduler) {
	}

	@Override
	public String toString() {
		return "DistlockLockRegistry[registryKey='" + this.registryKey + "', ttl=" + this.ttl + "]";
	}

}
