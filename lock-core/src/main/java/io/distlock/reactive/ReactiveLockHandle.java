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

package io.distlock.reactive;

import reactor.core.publisher.Mono;

/**
 * The lock held while a {@link ReactiveLockTemplate} action runs: its key, its fencing
 * token, and a signal for its loss. The template releases it when the action terminates,
 * so it has no {@code close}.
 *
 * <p>
 * The action gets it as an argument, or from the Reactor context with
 * {@link ReactiveLockTemplate#currentLock()}; a Kotlin coroutine under a
 * {@code @DistributedLocked} suspend function reads it the same way, with
 * {@code ReactiveLockTemplate.currentLock().awaitSingle()}.
 */
public interface ReactiveLockHandle {

	/**
	 * Return the key this lock was acquired for, as given by the caller (without the
	 * configured key prefix).
	 * @return the lock key
	 */
	String key();

	/**
	 * Return the fencing token of this acquisition: strictly greater than every token
	 * handed out for the same key before. Pass it to the storage written to, so that it
	 * can reject a write from a holder whose lease ran out meanwhile.
	 * @return the fencing token
	 */
	long fencingToken();

	/**
	 * Return a {@link Mono} that completes when this lock stops protecting the work under
	 * it, so that the action can stop: {@code work.takeUntilOther(lock.whenLost())}. That
	 * is when it is found lost (a renewal found it gone or taken, or its lease ran out
	 * before a renewal was confirmed), before any lost-lock listener runs; or just before
	 * {@link ReactiveLockTemplate#releaseHeldLocks()} releases it on shutdown, with a
	 * WARN naming it. It never completes after a normal release, nor for a lock without
	 * auto-renew, whose loss nothing detects.
	 * @return a {@link Mono} completed when the lock is found lost
	 */
	Mono<Void> whenLost();

}
