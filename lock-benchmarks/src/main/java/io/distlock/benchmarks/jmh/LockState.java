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

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.BenchmarkRedis;
import io.distlock.benchmarks.Scenario;
import io.distlock.benchmarks.contenders.Contender;
import io.distlock.benchmarks.contenders.LockContender;

/**
 * One contender for the whole trial, shared by the benchmark threads, with the latencies
 * they record and the count of overlapping holders seen by the one-key scenario. A trial
 * in which two holders overlapped fails when it ends.
 */
@State(Scope.Benchmark)
public class LockState {

	/**
	 * The contender's id.
	 */
	@Param({ "lettuce-floor", "distlock-template", "distlock-template-no-renew", "distlock-annotation",
			"distlock-annotation-no-renew", "redisson-lease", "redisson-watchdog", "spring-integration",
			"spring-integration-spin" })
	public String contender = "";

	final Latencies latencies = new Latencies();

	final AtomicInteger holders = new AtomicInteger();

	final LongAdder overlaps = new LongAdder();

	@Nullable LockContender lock;

	private @Nullable CpuMeter cpu;

	private @Nullable Scenario scenario;

	/**
	 * Create the contender.
	 * @param benchmark the benchmark being run
	 */
	@Setup(Level.Trial)
	public void setUp(BenchmarkParams benchmark) {
		this.scenario = Scenario.ofBenchmark(benchmark.getBenchmark());
		this.lock = Contender.of(this.contender).create(BenchmarkRedis.address());
		this.cpu = new CpuMeter(BenchmarkRedis.address());
	}

	/**
	 * Start recording latencies, for measurement iterations.
	 * @param iteration the iteration
	 */
	@Setup(Level.Iteration)
	public void startIteration(IterationParams iteration) {
		this.latencies.startIteration(iteration);
		cpu().startIteration(iteration);
	}

	/**
	 * Keep the iteration's latencies.
	 */
	@TearDown(Level.Iteration)
	public void endIteration() {
		cpu().endIteration();
		this.latencies.endIteration();
	}

	/**
	 * Write the latencies, close the contender, and fail if holders overlapped.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		Path results = BenchmarkFiles.resultsDirectory();
		String scenarioId = (this.scenario != null) ? BenchmarkFiles.resultId(this.scenario) : "unknown";
		this.latencies.write(BenchmarkFiles.histograms(results, scenarioId, this.contender));
		cpu().write(BenchmarkFiles.cpu(results, scenarioId, this.contender), this.latencies.measuredCount());
		if (this.lock != null) {
			this.lock.close();
		}
		long overlapped = this.overlaps.sum();
		if (overlapped > 0) {
			BenchmarkFiles.writeString(BenchmarkFiles.overlapMarker(results, scenarioId, this.contender),
					overlapped + "\n");
			throw new IllegalStateException(
					this.contender + " let two holders overlap " + overlapped + " time(s): mutual exclusion broken");
		}
	}

	private CpuMeter cpu() {
		CpuMeter cpu = this.cpu;
		if (cpu == null) {
			throw new IllegalStateException("Not set up");
		}
		return cpu;
	}

	LockContender lock() {
		LockContender lock = this.lock;
		if (lock == null) {
			throw new IllegalStateException("Not set up");
		}
		return lock;
	}

}
