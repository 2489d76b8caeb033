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

package io.distlock.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.distlock.LockBackendException;

/**
 * Retries a script that Redis Cluster answered with {@code TRYAGAIN}: while a slot
 * migrates between nodes, a script whose keys are not all on one of them is refused, and
 * a lock's keys are split until the migration finishes. A release must not give up at the
 * first refusal, or the lock would stay until its ttl; it is tried again with a short
 * backoff, for up to {@link #LIMIT}, or at once with only the key that exists for the
 * lock's kind ({@link #orOneKey}).
 */
final class SlotMigrationRetry {

	/**
	 * How long a refused script is tried again: a slot of lock keys moves in
	 * milliseconds, a large slot in a few seconds.
	 */
	static final Duration LIMIT = Duration.ofSeconds(2);

	/**
	 * The reason given for an acquisition refused while its slot migrates.
	 */
	static final String MIGRATING = "its hash slot is being migrated between Redis Cluster nodes (TRYAGAIN)";

	private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private SlotMigrationRetry() {
	}

	/**
	 * Run the command and, when Redis Cluster refuses it with {@code TRYAGAIN}, the
	 * fallback, which passes only the one key that exists for the lock's kind: Redis runs
	 * a script with one key on whichever node holds it, migrating or not.
	 * @param command the script with all of its keys
	 * @param whileMigrating the same operation on the one key
	 * @return the reply of whichever ran
	 */
	static <T> T orOneKey(Supplier<T> command, Supplier<T> whileMigrating) {
		try {
			return command.get();
		}
		catch (LockBackendException ex) {
			if (!RedisCalls.isRedisError(ex, "TRYAGAIN")) {
				throw ex;
			}
		}
		return call(whileMigrating);
	}

	static <T> T call(Supplier<T> command) {
		long deadline = System.nanoTime() + LIMIT.toNanos();
		long backoff = FIRST_BACKOFF_NANOS;
		while (true) {
			try {
				return command.get();
			}
			catch (LockBackendException ex) {
				if (!RedisCalls.isRedisError(ex, "TRYAGAIN") || System.nanoTime() + backoff - deadline > 0
						|| Thread.currentThread().isInterrupted()) {
					throw ex;
				}
			}
			LockSupport.parkNanos(backoff);
			backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
		}
	}

}
