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

package io.distlock.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import io.distlock.WaitedOnLock;
import io.distlock.WaitingLock;

import org.springframework.util.Assert;

/**
 * The callers of one {@link LockSettings} that wait for a lock now, and how much the
 * callers have waited for the locks of each name: what the {@code locks} endpoint lists
 * and the {@code distlock.lock.waiting} gauge counts. A caller waits from the first
 * attempt of an acquisition with a wait time until the acquisition returns; one without a
 * wait time never waits.
 *
 * <p>
 * At most {@value #MAX_NAMES} names are counted apart; callers of any further name are
 * counted under {@value #OTHER_NAMES}, so that a name made of data cannot grow the counts
 * without bound.
 */
final class WaitingLocks {

	/**
	 * How many lock names are counted apart.
	 */
	static final int MAX_NAMES = 500;

	/**
	 * The name under which callers of names beyond {@value #MAX_NAMES} are counted.
	 */
	static final String OTHER_NAMES = "(other)";

	private final Set<Waiting> waiting = ConcurrentHashMap.newKeySet();

	private final Map<String, Counts> names = new ConcurrentHashMap<>();

	private final List<Consumer<String>> nameListeners = new CopyOnWriteArrayList<>();

	private final Clock clock;

	WaitingLocks() {
		this(Clock.systemUTC());
	}

	WaitingLocks(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Begin the wait of the calling thread for a lock.
	 * @param key the lock key, without the key prefix
	 * @param name the lock's name, empty when unnamed
	 * @return the wait, to be ended once
	 */
	Waiting begin(String key, String name) {
		Counts counts = counts(name);
		Waiting wait = new Waiting(key, name, Thread.currentThread().getName(), this.clock.instant(), System.nanoTime(),
				counts);
		counts.waitingNow.incrementAndGet();
		this.waiting.add(wait);
		return wait;
	}

	private Counts counts(String name) {
		Counts counts = this.names.get(name);
		if (counts != null) {
			return counts;
		}
		String counted = (this.names.size() < MAX_NAMES) ? name : OTHER_NAMES;
		boolean[] created = new boolean[1];
		counts = this.names.computeIfAbsent(counted, (n) -> {
			created[0] = true;
			return new Counts();
		});
		if (created[0]) {
			this.nameListeners.forEach((listener) -> listener.accept(counted));
		}
		return counts;
	}

	/**
	 * Return how many callers wait for a lock of the given name now.
	 * @param name a lock name, empty for unnamed locks, or {@value #OTHER_NAMES}
	 * @return the number of waiting callers
	 */
	int waitingNow(String name) {
		Counts counts = this.names.get(name);
		return (counts != null) ? counts.waitingNow.get() : 0;
	}

	/**
	 * Call the given listener with each lock name that callers have waited for, now and
	 * whenever one is waited for the first time: for a gauge per name.
	 * @param listener called with each name, empty for unnamed locks
	 */
	void forEachName(Consumer<String> listener) {
		Assert.notNull(listener, "'listener' must not be null");
		this.nameListeners.add(listener);
		this.names.keySet().forEach(listener);
	}

	/**
	 * Return the callers waiting now, those waiting longest first.
	 * @return a snapshot
	 */
	List<WaitingLock> describe() {
		Instant now = this.clock.instant();
		long nanos = System.nanoTime();
		List<WaitingLock> described = new ArrayList<>();
		for (Waiting wait : this.waiting) {
			described.add(new WaitingLock(wait.key, wait.name, wait.thread, wait.since,
					Duration.ofNanos(Math.max(0, nanos - wait.startNanos))));
		}
		described.sort(Comparator.comparing(WaitingLock::since));
		return described;
	}

	/**
	 * Return the names whose locks the callers have waited for longest in all, longest
	 * first.
	 * @param limit how many names at most
	 * @return at most {@code limit} rows
	 */
	List<WaitedOnLock> mostWaitedOn(int limit) {
		List<WaitedOnLock> rows = new ArrayList<>();
		this.names.forEach((name, counts) -> rows.add(new WaitedOnLock(name, counts.waitingNow.get(),
				counts.waits.sum(), Duration.ofNanos(counts.waitNanos.sum()))));
		rows.sort(Comparator.comparing(WaitedOnLock::totalWait).reversed());
		return (rows.size() > limit) ? List.copyOf(rows.subList(0, limit)) : rows;
	}

	/**
	 * The wait of one caller.
	 */
	final class Waiting {

		private final String key;

		private final String name;

		private final String thread;

		private final Instant since;

		private final long startNanos;

		private final Counts counts;

		private Waiting(String key, String name, String thread, Instant since, long startNanos, Counts counts) {
			this.key = key;
			this.name = name;
			this.thread = thread;
			this.since = since;
			this.startNanos = startNanos;
			this.counts = counts;
		}

		/**
		 * End this wait, once.
		 */
		void end() {
			if (WaitingLocks.this.waiting.remove(this)) {
				this.counts.waitingNow.decrementAndGet();
				this.counts.waits.increment();
				this.counts.waitNanos.add(System.nanoTime() - this.startNanos);
			}
		}

	}

	private static final class Counts {

		private final AtomicInteger waitingNow = new AtomicInteger();

		private final LongAdder waits = new LongAdder();

		private final LongAdder waitNanos = new LongAdder();

	}

}
