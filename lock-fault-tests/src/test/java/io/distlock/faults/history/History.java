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
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Everything recorded in one fault scenario: the critical sections the clients believed
 * they held, the operations the fenced storage accepted or rejected in their global
 * order, the lock acquisition attempts, the lost-lock notices, the clients killed and
 * paused by the test, the lock keys found in Redis after the run, and what each multi-key
 * acquisition was given.
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
 * @param multiHolds every multi-key acquisition, with the keys asked for and the keys and
 * tokens its handle held; each has one {@link Section} per key, of its
 * {@link Section#group() group}
 */
public record History(List<Section> sections, List<StorageOp> storageOps, List<Attempt> attempts,
		List<LostNotice> lostNotices, Map<String, Long> killed, List<Window> frozen, List<String> leftLockKeys,
		List<MultiHold> multiHolds) {

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
		multiHolds = List.copyOf(multiHolds);
	}

	/**
	 * Create a history without multi-key acquisitions.
	 * @param sections every critical section entered
	 * @param storageOps every storage operation
	 * @param attempts every lock acquisition attempt that ended
	 * @param lostNotices every lost-lock notice
	 * @param killed the clients killed by the test
	 * @param frozen when client JVMs did not run
	 * @param leftLockKeys the lock keys still in Redis after the run
	 */
	public History(List<Section> sections, List<StorageOp> storageOps, List<Attempt> attempts,
			List<LostNotice> lostNotices, Map<String, Long> killed, List<Window> frozen, List<String> leftLockKeys) {
		this(sections, storageOps, attempts, lostNotices, killed, frozen, leftLockKeys, List.of());
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
	 * the lock, to its exit, recorded before it released the lock. A multi-key
	 * acquisition has one section per key, all of one {@code group}, each with that key's
	 * token; a permit holder's section has the key's limit as {@code permits}; a read
	 * hold's section is {@code read}.
	 *
	 * @param holder the unique id of this acquisition (of this key, for a multi-key one)
	 * @param client the client JVM
	 * @param key the lock key
	 * @param token the fencing token the holder got
	 * @param enterSeq the storage sequence number of the entry
	 * @param exitSeq the storage sequence number of the exit, or {@code -1} if none was
	 * recorded
	 * @param release how the lock was given back
	 * @param group the id of the multi-key acquisition this section is one key of, empty
	 * for a single-key one
	 * @param permits how many holders the key may have at once: 1 for an exclusive lock,
	 * more for one of a key's permits
	 * @param read whether this is a read hold, shared with other readers and excluding
	 * writers; its token is the latest writer's, shared with the other readers
	 */
	public record Section(String holder, String client, String key, long token, long enterSeq, long exitSeq,
			Release release, String group, int permits, boolean read) {

		/**
		 * Create the section of a write or exclusive lock, or of one of a key's permits.
		 * @param holder the unique id of this acquisition
		 * @param client the client JVM
		 * @param key the lock key
		 * @param token the fencing token the holder got
		 * @param enterSeq the storage sequence number of the entry
		 * @param exitSeq the storage sequence number of the exit, or {@code -1}
		 * @param release how the lock was given back
		 * @param group the multi-key acquisition, empty for none
		 * @param permits how many holders the key may have at once
		 */
		public Section(String holder, String client, String key, long token, long enterSeq, long exitSeq,
				Release release, String group, int permits) {
			this(holder, client, key, token, enterSeq, exitSeq, release, group, permits, false);
		}

		/**
		 * Create the section of an exclusive single-key lock.
		 * @param holder the unique id of this acquisition
		 * @param client the client JVM
		 * @param key the lock key
		 * @param token the fencing token the holder got
		 * @param enterSeq the storage sequence number of the entry
		 * @param exitSeq the storage sequence number of the exit, or {@code -1}
		 * @param release how the lock was given back
		 */
		public Section(String holder, String client, String key, long token, long enterSeq, long exitSeq,
				Release release) {
			this(holder, client, key, token, enterSeq, exitSeq, release, "", 1, false);
		}

		/**
		 * Return whether an exit was recorded.
		 * @return whether the section ended
		 */
		public boolean exited() {
			return this.exitSeq >= 0;
		}

		/**
		 * Return whether this is one of several permits of its key, which other holders
		 * share up to the limit, rather than an exclusive lock.
		 * @return whether the key has more than one permit
		 */
		public boolean isPermit() {
			return this.permits > 1;
		}

	}

	/**
	 * What one multi-key acquisition asked for and what its handle held, recorded by the
	 * client before it entered the section of any key.
	 *
	 * @param group the acquisition id, the {@link Section#group() group} of its sections
	 * @param client the client JVM
	 * @param keys the keys asked for
	 * @param tokens the keys the handle held, with each key's fencing token
	 */
	public record MultiHold(String group, String client, Set<String> keys, Map<String, Long> tokens) {

		/**
		 * Create a multi-key acquisition record, copying the collections.
		 */
		public MultiHold {
			keys = Set.copyOf(keys);
			tokens = Map.copyOf(tokens);
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
