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

package io.distlock.benchmarks;

import java.util.Arrays;

/**
 * The JMH scenarios, each one benchmark class; the id names its result files.
 */
public enum Scenario {

	/**
	 * One thread, lock and unlock of one key, nobody else wants it.
	 */
	UNCONTENDED("uncontended", "io.distlock.benchmarks.jmh.UncontendedBenchmark"),

	/**
	 * Sixteen threads, each locking its own key.
	 */
	DISTINCT_KEYS("distinct-keys", "io.distlock.benchmarks.jmh.DistinctKeysBenchmark"),

	/**
	 * Sixteen threads, all locking the same key.
	 */
	ONE_KEY("one-key", "io.distlock.benchmarks.jmh.OneKeyBenchmark"),

	/**
	 * distlock over 1, 3 and 5 independent Redis nodes.
	 */
	REDLOCK("redlock", "io.distlock.benchmarks.jmh.RedlockBenchmark"),

	/**
	 * distlock's uncontended lock+unlock taken apart, layer by layer.
	 */
	BREAKDOWN("breakdown", "io.distlock.benchmarks.jmh.CostBreakdownBenchmark");

	private final String id;

	private final String benchmarkClass;

	Scenario(String id, String benchmarkClass) {
		this.id = id;
		this.benchmarkClass = benchmarkClass;
	}

	/**
	 * Return the id that names the scenario's result files.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the regular expression that selects the scenario's benchmark in JMH.
	 * @return the include pattern
	 */
	public String include() {
		return "^" + this.benchmarkClass.replace(".", "\\.") + "\\.";
	}

	/**
	 * Return the scenario of a JMH benchmark method.
	 * @param benchmark the benchmark's full method name
	 * @return the scenario
	 */
	public static Scenario ofBenchmark(String benchmark) {
		return Arrays.stream(values())
			.filter((scenario) -> benchmark.startsWith(scenario.benchmarkClass + "."))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No scenario for benchmark " + benchmark));
	}

}
