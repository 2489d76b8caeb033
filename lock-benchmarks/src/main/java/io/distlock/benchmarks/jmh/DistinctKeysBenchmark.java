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

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Sixteen threads sharing one contender, each locking and unlocking a key of its own: how
 * many locks per second one client instance sustains when nothing contends.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(16)
public class DistinctKeysBenchmark {

	private static final Runnable NOTHING = () -> {
	};

	/**
	 * Lock, run nothing, unlock, on the thread's own key.
	 * @param state the contender
	 * @param thread the thread's key
	 */
	@Benchmark
	public void lockUnlock(LockState state, ThreadKey thread) {
		long start = System.nanoTime();
		state.lock().withLock(thread.key, NOTHING);
		state.latencies.record(System.nanoTime() - start);
	}

	/**
	 * The key of one benchmark thread.
	 */
	@State(Scope.Thread)
	public static class ThreadKey {

		String key = "";

		/**
		 * Name the thread's key.
		 * @param thread the thread
		 */
		@Setup(Level.Trial)
		public void setUp(ThreadParams thread) {
			this.key = "bench:distinct:" + thread.getThreadIndex();
		}

	}

}
