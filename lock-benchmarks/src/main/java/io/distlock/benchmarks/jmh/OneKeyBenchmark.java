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

package io.distlock.benchmarks.jmh;

import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Sixteen threads sharing one contender, all locking the same key: every operation is a
 * handoff from one holder to the next. Records each thread's time to acquire, and checks
 * mutual exclusion: a holder that finds another holder inside counts an overlap, which
 * fails the trial.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(16)
public class OneKeyBenchmark {

	private static final String KEY = "bench:one-key";

	// About a microsecond of work under the lock, so that an overlap has time to show.
	private static final long WORK_TOKENS = 256;

	/**
	 * Wait for the lock, do a little work under it, unlock.
	 * @param state the contender
	 * @param section the thread's critical section
	 */
	@Benchmark
	public void lockUnlock(LockState state, CriticalSection section) {
		section.state = state;
		section.start = System.nanoTime();
		state.lock().withLock(KEY, section);
	}

	/**
	 * What one thread runs under the lock: record the time to acquire, check that it is
	 * the only holder, work a little.
	 */
	@State(Scope.Thread)
	public static class CriticalSection implements Runnable {

		@Nullable LockState state;

		long start;

		@Override
		public void run() {
			LockState state = this.state;
			if (state == null) {
				throw new IllegalStateException("Not set up");
			}
			state.latencies.record(System.nanoTime() - this.start);
			if (state.holders.incrementAndGet() != 1) {
				state.overlaps.increment();
			}
			Blackhole.consumeCPU(WORK_TOKENS);
			state.holders.decrementAndGet();
		}

	}

}
