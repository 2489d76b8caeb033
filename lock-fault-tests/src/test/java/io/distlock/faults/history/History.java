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

package io.distlock.faults.history;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Everything recorded in one fault scenario: the critical sections the clients believed
 * they held, the operations the fenced storage accepted or rejected in their global
 * order, the lock acquisition attempts, the lost-lock notices, the clients killed and
 * paused by the test, and the lock keys found in Redis after the run.
 *
 * @param sections every critical section entered
 * @param storageOps every storage operation, in the storage's order
 * @param attempts every lock acquisition attempt that ended
 * @param lostNotices every lost-lock notice a client received
 * @param killed the clients killed by the test, with the storage sequence number recorded
 * right after each died
 * @param frozen when client JVMs did not run, on the machine's monotonic clock: frozen by
 * the test (SIGSTOP), or stalled as the client itself measured (GC, starved CPU)
 * @param leftLockKeys the lock keys still in Redis after every client finished and
 * released its locks and the longest ttl has passed: locks never released
 */
public record History(List<Section> sections, List<StorageOp> storageOps, List<Attempt> attempts,
		List<LostNotice> lostNotices, Map<String, Long> killed, List<Window> frozen, List<String> leftLockKeys) {

	/**
	 * Create a history, copying the lists.
	 */
	public History {
		sections = List.copyOf(sections);
		storageOps = List.copyOf(storageOps);
		attempts = List.copyOf(attempts);
		lostNotices = List.copyOf(lostNotices);
		killed = Map.copyOf(killed);
		frozen = List.copyOf(frozen);
		leftLockKeys = List.copyOf(leftLockKeys);
	}

	/**
	 * How a critical section's lock was given back.
	 */
	public enum Release {

		/**
		 * The release script found the lock held by this owner and deleted it.
		 */
		RELEASED,

		/**
		 * The release found the lock no longer held by this owner: the library reported
		 * that its lease had run out.
		 */
		MISMATCH,

		/**
		 * The release raised an error, or the annotation path reported neither a release
		 * nor a mismatch (a release failure after a method that returned normally is only
		 * logged, and a lock already reported lost is not released again).
		 */
		UNCONFIRMED,

		/**
		 * No release was recorded: the client was killed, or the lock was never given
		 * back.
		 */
		NONE

	}

	/**
	 * One critical section: from the holder's entry, recorded in the storage after it got
	 * the lock, to its exit, recorded before it released the lock.
	 *
	 * @param holder the unique id of this acquisition
	 * @param client the client JVM
	 * @param key the lock key
	 * @param token the fencing token the holder got
	 * @param enterSeq the storage sequence number of the entry
	 * @param exitSeq the storage sequence number of the exit, or {@code -1} if none was
	 * recorded
	 * @param release how the lock was given back
	 */
	public record Section(String holder, String client, String key, long token, long enterSeq, long exitSeq,
			Release release) {

		/**
		 * Return whether an exit was recorded.
		 * @return whether the section ended
		 */
		public boolean exited() {
			return this.exitSeq >= 0;
		}

	}

	/**
	 * One operation of the fenced storage, with its place in the storage's global order.
	 * Fenced operations ({@code read}, {@code write}) are refused for a token lower than
	 * the highest the key's storage has seen; {@code plain-read} and {@code plain-write}
	 * work on an unfenced counter, to measure what mutual exclusion alone protects.
	 *
	 * @param seq the global sequence number
	 * @param micros the storage server's clock, in microseconds
	 * @param op the operation: enter, exit, read, write, plain-read, plain-write or a
	 * test mark (kill, pause, restart...)
	 * @param key the lock key the data belongs to
	 * @param holder the acquisition that sent it (for a mark, the client or server)
	 * @param token the fencing token sent with it
	 * @param accepted whether the storage accepted it
	 * @param value the counter value before the operation
	 * @param duplicateToken whether a different holder had already used the same token
	 * @param expected for a write, the value the holder read before (a different
	 * {@code value} means an update in between was overwritten)
	 * @param written for a write, the value written
	 */
	public record StorageOp(long seq, long micros, String op, String key, String holder, long token, boolean accepted,
			long value, boolean duplicateToken, long expected, long written) {

		/**
		 * Return whether this is an operation on the fenced counter.
		 * @return whether the storage checked its token
		 */
		public boolean fenced() {
			return "read".equals(this.op) || "write".equals(this.op);
		}

	}

	/**
	 * One lock acquisition attempt, timed on the machine's monotonic clock (which all
	 * JVMs of one Linux machine share).
	 *
	 * @param client the client JVM
	 * @param key the lock key
	 * @param mode {@code annotation} or {@code template}
	 * @param waitNanos the wait time asked for
	 * @param startNanos when the attempt started
	 * @param endNanos when it got the lock, gave up or failed
	 * @param outcome {@code acquired}, {@code busy} or {@code error}
	 */
	public record Attempt(String client, String key, String mode, long waitNanos, long startNanos, long endNanos,
			String outcome) {

		/**
		 * Return how long the attempt took.
		 * @return the time waited, in nanoseconds
		 */
		public long waitedNanos() {
			return this.endNanos - this.startNanos;
		}

	}

	/**
	 * A notice from the library that a held lock was lost (renewal found it gone).
	 *
	 * @param client the client JVM
	 * @param key the lock key
	 * @param token the fencing token of the lost acquisition
	 */
	public record LostNotice(String client, String key, long token) {

	}

	/**
	 * A time window in which a client JVM did not run.
	 *
	 * @param client the client JVM
	 * @param startNanos when it stopped, on the monotonic clock
	 * @param endNanos when it ran again
	 */
	public record Window(String client, long startNanos, long endNanos) {

	}

	/**
	 * Find the section of the given holder.
	 * @param holder the acquisition id
	 * @return the section, or {@code null}
	 */
	public @Nullable Section section(String holder) {
		return this.sections.stream().filter((section) -> section.holder().equals(holder)).findFirst().orElse(null);
	}

}
