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
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;

/**
 * Uncontended lock and unlock on one thread: the cost of one lock as a caller pays it, in
 * operations per second and as a latency distribution of the whole lock+unlock.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class UncontendedBenchmark {

	private static final String KEY = "bench:uncontended";

	private static final Runnable NOTHING = () -> {
	};

	/**
	 * Lock, run nothing, unlock.
	 * @param state the contender
	 */
	@Benchmark
	public void lockUnlock(LockState state) {
		long start = System.nanoTime();
		state.lock().withLock(KEY, NOTHING);
		state.latencies.record(System.nanoTime() - start);
	}

}
