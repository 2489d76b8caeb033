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

import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;

import io.distlock.LockContext;
import io.distlock.LockHandle;

/**
 * A ShedLock lock held through a distlock {@link LockHandle}, bound to the thread that
 * runs its task under ShedLock's executor. Extending it hands the same handle to the new
 * lock, which ShedLock makes the active one; this one is then no longer valid.
 */
final class DistlockSimpleLock extends AbstractSimpleLock {

	// ShedLock's executor, which unlocks in a finally block on the thread that locked.
	private static final String EXECUTOR = "net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor";

	private static final StackWalker stack = StackWalker.getInstance();

	private final LockHandle handle;

	private final @Nullable LockContext scope;

	private DistlockSimpleLock(LockConfiguration configuration, LockHandle handle, @Nullable LockContext scope) {
		super(configuration);
		this.handle = handle;
		this.scope = scope;
	}

	/**
	 * Return a lock for the handle, bound to the current thread if ShedLock's executor
	 * took it: the executor runs the task on this thread and then unlocks it here. A lock
	 * taken otherwise may be unlocked on another thread, or never, and is not bound, so
	 * that it cannot stay behind on a pooled thread. (ShedLock 6 has no executor listener
	 * to say when a task starts and ends; the caller is the one sign.)
	 */
	static DistlockSimpleLock taken(LockConfiguration configuration, LockHandle handle) {
		LockContext scope = takenByShedLocksExecutor() ? LockContext.open(handle) : null;
		return new DistlockSimpleLock(configuration, handle, scope);
	}

	// A few frames up: the provider, any wrapping provider (KeepAliveLockProvider), the
	// executor.
	private static boolean takenByShedLocksExecutor() {
		return stack.walk((frames) -> frames.limit(12).anyMatch((frame) -> EXECUTOR.equals(frame.getClassName())));
	}

	@Override
	protected void doUnlock() {
		try {
			// Before lockAtLeastFor, this leaves the lock held until then.
			this.handle.close();
		}
		finally {
			unbind();
		}
	}

	@Override
	protected Optional<SimpleLock> doExtend(LockConfiguration configuration) {
		Duration lease = DistlockLockProvider.atLeastOneMilli(configuration.getLockAtMostFor());
		boolean extended;
		try {
			extended = this.handle.extend(lease, DistlockLockProvider.min(configuration.getLockAtLeastFor(), lease));
		}
		catch (RuntimeException ex) {
			// ShedLock keeps the old lock active, and its unlock fails: end the hold now.
			release();
			throw ex;
		}
		if (!extended) {
			release();
			return Optional.empty();
		}
		return Optional.of(new DistlockSimpleLock(configuration, this.handle, this.scope));
	}

	private void unbind() {
		if (this.scope != null) {
			this.scope.close();
		}
	}

	private void release() {
		try {
			this.handle.close();
		}
		catch (RuntimeException ex) {
			// Already lost: nothing of it is left to release.
		}
		finally {
			unbind();
		}
	}

	@Override
	public String toString() {
		return "DistlockSimpleLock[" + this.lockConfiguration.getName() + ", " + this.handle + "]";
	}

}
