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

package io.distlock.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs a critical section from many threads under a lock and detects overlaps explicitly:
 * each section checks that it is alone, and increments a counter with a non-atomic
 * read-modify-write that loses updates unless the sections are exclusive.
 */
public final class CriticalSections {

	private final AtomicInteger inside = new AtomicInteger();

	private final AtomicInteger overlaps = new AtomicInteger();

	private final AtomicInteger counter = new AtomicInteger();

	private CriticalSections() {
	}

	/**
	 * Run {@code perThread} critical sections on each of {@code threads} threads, each
	 * section through {@code underLock}, which must run the given section while holding
	 * the lock.
	 * @param threads the number of threads
	 * @param perThread the critical sections per thread
	 * @param underLock runs one critical section under the lock
	 * @return the outcome
	 * @throws Exception if a thread failed or did not finish within two minutes
	 */
	public static CriticalSections run(int threads, int perThread, Consumer<Runnable> underLock) throws Exception {
		CriticalSections sections = new CriticalSections();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						underLock.accept(sections::section);
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		return sections;
	}

	private void section() {
		if (this.inside.incrementAndGet() != 1) {
			this.overlaps.incrementAndGet();
		}
		int value = this.counter.get();
		Thread.yield();
		this.counter.set(value + 1);
		this.inside.decrementAndGet();
	}

	/**
	 * Return how many sections found another one running at the same time.
	 * @return the number of overlaps
	 */
	public int overlaps() {
		return this.overlaps.get();
	}

	/**
	 * Return the counter: the number of sections run, unless updates were lost.
	 * @return the counter
	 */
	public int count() {
		return this.counter.get();
	}

}
