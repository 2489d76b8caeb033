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

package io.distlock.benchmarks.contenders;

/**
 * One lock implementation as the benchmarks see it: run a piece of code while holding the
 * lock of a key, waiting up to {@link #WAIT_SECONDS} seconds for it, and release it
 * afterwards. Every contender takes a lease of {@link #LEASE_SECONDS} seconds.
 */
public interface LockContender extends AutoCloseable {

	/**
	 * How long every contender waits for a busy lock, in seconds.
	 */
	long WAIT_SECONDS = 10;

	/**
	 * The lease time of every contender's locks, in seconds (the watchdog contenders
	 * renew it while the lock is held).
	 */
	long LEASE_SECONDS = 30;

	/**
	 * Acquire the lock of the key, waiting if it is busy, run the body while holding it,
	 * and release it, also when the body throws.
	 * @param key the lock key
	 * @param body what to run while holding the lock
	 * @throws IllegalStateException if the lock stayed busy for the whole wait time
	 */
	void withLock(String key, Runnable body);

	/**
	 * Release the contender's connections and threads.
	 */
	@Override
	void close();

}
