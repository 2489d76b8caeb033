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

import java.util.Arrays;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * The mean of a set of measured iterations with the half-width of its 99.9% confidence
 * interval (Student's t, as JMH computes its score error).
 *
 * @param mean the mean
 * @param error the half-width of the 99.9% confidence interval; NaN for one value
 * @param count the number of values
 */
public record Summary(double mean, double error, int count) {

	/**
	 * Summarize the values.
	 * @param values the values, at least one
	 * @return the summary
	 */
	public static Summary of(double[] values) {
		if (values.length == 0) {
			throw new IllegalArgumentException("No values");
		}
		double mean = Arrays.stream(values).average().orElseThrow();
		if (values.length == 1) {
			return new Summary(mean, Double.NaN, 1);
		}
		double variance = Arrays.stream(values).map((value) -> (value - mean) * (value - mean)).sum()
				/ (values.length - 1);
		double t = new TDistribution(values.length - 1).inverseCumulativeProbability(1 - 0.001 / 2);
		return new Summary(mean, t * Math.sqrt(variance / values.length), values.length);
	}

	/**
	 * Return the relative error, the error divided by the mean.
	 * @return the relative error
	 */
	public double relativeError() {
		return this.error / this.mean;
	}

}
