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

package io.distlock.shedlock;

import java.time.Duration;
import java.util.Optional;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import io.distlock.LockHandle;
import io.distlock.LockOperations;
import io.distlock.LockRequest;

import org.springframework.util.Assert;

/**
 * A ShedLock {@link ExtensibleLockProvider} on distlock, so that {@code @SchedulerLock}
 * jobs and ShedLock's {@code LockingTaskExecutor} lock through distlock's engine: its
 * store (Redis, a Cluster, Redlock), fencing tokens, metrics and the locks endpoint.
 *
 * <p>
 * ShedLock's settings map onto a {@link LockRequest} without auto-renew:
 * <ul>
 * <li>the lock name is the lock key, and the name of the lock in metrics;</li>
 * <li>{@code lockAtMostFor} is the lease, never renewed: the lock expires then even if
 * its job still runs, as with every ShedLock provider;</li>
 * <li>{@code lockAtLeastFor} is the minimum hold: {@link SimpleLock#unlock()} before it
 * leaves the lock held, owner-checked, until it ends;</li>
 * <li>{@link SimpleLock#extend(Duration, Duration)} extends the lease owner-checked, and
 * gives the lock a new minimum hold counted from then.</li>
 * </ul>
 * The lock is not re-entrant: a second {@code lock} of the same name finds it busy, also
 * on the same thread, as ShedLock expects (ShedLock's executor itself runs a nested call
 * of the same name without locking again).
 *
 * <p>
 * While ShedLock's executor ({@code @SchedulerLock}, a {@code LockingTaskExecutor}) runs
 * a task under the lock, the lock is bound to the task's thread, until its unlock there:
 * the task reads it with {@link io.distlock.LockContext#current()}, for its fencing token
 * or a {@code JdbcFence.check}. A lock taken by calling {@link #lock(LockConfiguration)}
 * from other code is not bound, since nothing says that it is unlocked on this thread.
 */
public class DistlockLockProvider implements ExtensibleLockProvider {

	private static final Duration MIN_LEASE = Duration.ofMillis(1);

	private final LockOperations locks;

	/**
	 * Create a provider that locks through the given operations.
	 * @param locks the lock operations, a {@link io.distlock.LockTemplate}
	 */
	public DistlockLockProvider(LockOperations locks) {
		Assert.notNull(locks, "'locks' must not be null");
		this.locks = locks;
	}

	@Override
	public Optional<SimpleLock> lock(LockConfiguration configuration) {
		Assert.notNull(configuration, "'configuration' must not be null");
		Duration lease = atLeastOneMilli(configuration.getLockAtMostFor());
		LockRequest request = LockRequest.builder(configuration.getName())
			.ttl(lease)
			.waitTime(Duration.ZERO)
			.autoRenew(false)
			.minHold(min(configuration.getLockAtLeastFor(), lease))
			.name(lockName(configuration.getName()))
			.build();
		Optional<LockHandle> handle = this.locks.tryAcquire(request);
		return handle.map((held) -> DistlockSimpleLock.taken(configuration, held));
	}

	static Duration atLeastOneMilli(Duration duration) {
		return (duration.compareTo(MIN_LEASE) < 0) ? MIN_LEASE : duration;
	}

	static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	// The name tags metrics: ShedLock's names are few (one a job), and a long one is cut.
	// A name with a control character fails as a key first.
	private static String lockName(String name) {
		return (name.length() <= LockRequest.MAX_NAME_LENGTH) ? name : name.substring(0, LockRequest.MAX_NAME_LENGTH);
	}

	@Override
	public String toString() {
		return "DistlockLockProvider[" + this.locks + "]";
	}

}
