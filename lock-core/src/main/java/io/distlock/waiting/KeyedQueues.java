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

package io.distlock.waiting;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Queues of waiters by key for {@link LockWaiter}, each key present only while its queue
 * is not empty, telling when a key gets its first entry and loses its last.
 *
 * @param <T> the type of the entries
 */
final class KeyedQueues<T> {

	private final ConcurrentHashMap<String, Queue<T>> queues = new ConcurrentHashMap<>();

	/**
	 * Add an entry to the queue of the key.
	 * @param key the key
	 * @param entry the entry
	 * @return whether it is the key's first entry
	 */
	boolean add(String key, T entry) {
		boolean[] first = new boolean[1];
		this.queues.compute(key, (k, queue) -> {
			first[0] = (queue == null);
			Queue<T> result = (queue != null) ? queue : new ConcurrentLinkedQueue<>();
			result.add(entry);
			return result;
		});
		return first[0];
	}

	/**
	 * Remove an entry from the queue of the key.
	 * @param key the key
	 * @param entry the entry
	 * @return whether the key lost its last entry
	 */
	boolean remove(String key, T entry) {
		boolean[] last = new boolean[1];
		this.queues.computeIfPresent(key, (k, queue) -> {
			queue.remove(entry);
			last[0] = queue.isEmpty();
			return last[0] ? null : queue;
		});
		return last[0];
	}

	@Nullable Queue<T> get(String key) {
		return this.queues.get(key);
	}

	boolean contains(String key) {
		return this.queues.containsKey(key);
	}

	Set<String> keys() {
		return Set.copyOf(this.queues.keySet());
	}

	void forEach(Consumer<T> action) {
		this.queues.values().forEach((queue) -> queue.forEach(action));
	}

	int size() {
		return this.queues.values().stream().mapToInt(Queue::size).sum();
	}

}
