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

package io.distlock.benchmarks.report;

import org.HdrHistogram.Histogram;

/**
 * Latency percentiles in microseconds, from an HdrHistogram in nanoseconds.
 *
 * @param count the number of recorded values
 * @param p50 the median
 * @param p99 the 99th percentile
 * @param p999 the 99.9th percentile
 * @param max the largest value
 */
public record Percentiles(long count, double p50, double p99, double p999, double max) {

	/**
	 * Read the percentiles of a histogram in nanoseconds.
	 * @param histogram the histogram
	 * @return the percentiles in microseconds
	 */
	public static Percentiles of(Histogram histogram) {
		return new Percentiles(histogram.getTotalCount(), micros(histogram.getValueAtPercentile(50)),
				micros(histogram.getValueAtPercentile(99)), micros(histogram.getValueAtPercentile(99.9)),
				micros(histogram.getMaxValue()));
	}

	private static double micros(long nanos) {
		return nanos / 1000.0;
	}

}
