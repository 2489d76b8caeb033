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

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import io.distlock.benchmarks.BenchmarkFiles;

/**
 * Latencies of one trial in nanoseconds, recorded wait-free from any number of benchmark
 * threads into an HdrHistogram, and kept for the measurement iterations only.
 */
public final class Latencies {

	private final Recorder recorder = new Recorder(3);

	private final Histogram measured = new Histogram(3);

	private volatile boolean measuring;

	/**
	 * Start an iteration: warm-up iterations are recorded but dropped.
	 * @param iteration the iteration
	 */
	public void startIteration(IterationParams iteration) {
		this.recorder.reset();
		this.measuring = iteration.getType() == IterationType.MEASUREMENT;
	}

	/**
	 * Record one latency.
	 * @param nanos the latency in nanoseconds
	 */
	public void record(long nanos) {
		this.recorder.recordValue(Math.max(0, nanos));
	}

	/**
	 * End an iteration, keeping what it recorded if it was a measurement iteration.
	 */
	public void endIteration() {
		Histogram interval = this.recorder.getIntervalHistogram();
		if (this.measuring) {
			this.measured.add(interval);
		}
		this.measuring = false;
	}

	/**
	 * Return how many latencies the measurement iterations recorded.
	 * @return the count
	 */
	public long measuredCount() {
		return this.measured.getTotalCount();
	}

	/**
	 * Write the measured latencies to a new file in the directory, if any were measured.
	 * @param directory the directory
	 */
	public void write(Path directory) {
		if (this.measured.getTotalCount() > 0) {
			BenchmarkFiles.writeHistogram(directory, this.measured);
		}
	}

}
