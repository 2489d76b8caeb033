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

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.report.Targets.Target;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Targets}: each verdict follows from the results, in both directions.
 */
class TargetsTests {

	@TempDir
	Path results;

	@Test
	void uncontendedTargetsAreMetAtTheFloorsCost() {
		jmh("uncontended", "lettuce-floor", 1000, 3000);
		jmh("uncontended", "distlock-template", 960, 5900);
		cpu("uncontended", "lettuce-floor", 100, 4.0, 0);
		cpu("uncontended", "distlock-template", 114, 7.0, 0);
		assertThat(verdict("Uncontended lock+unlock, 1 thread: LockTemplate ≥ 0.95× the floor's throughput"))
			.contains(true);
		assertThat(verdict("JVM CPU per lock+unlock ≤ 1.15× the floor's")).contains(true);
		assertThat(verdict("allocation per lock+unlock ≤ 2× the floor's")).contains(true);
		assertThat(verdict("≤ 7 Redis commands per lock+unlock")).contains(true);
		assertThat(verdict("0 pub/sub messages")).contains(true);
	}

	@Test
	void uncontendedTargetsAreMissedAboveTheFloorsCost() {
		jmh("uncontended", "lettuce-floor", 1000, 3000);
		jmh("uncontended", "distlock-template", 940, 6100);
		cpu("uncontended", "lettuce-floor", 100, 4.0, 0);
		cpu("uncontended", "distlock-template", 116, 7.1, 1);
		assertThat(verdict("Uncontended lock+unlock, 1 thread: LockTemplate ≥ 0.95× the floor's throughput"))
			.contains(false);
		assertThat(verdict("JVM CPU per lock+unlock ≤ 1.15× the floor's")).contains(false);
		assertThat(verdict("allocation per lock+unlock ≤ 2× the floor's")).contains(false);
		assertThat(verdict("≤ 7 Redis commands per lock+unlock")).contains(false);
		assertThat(verdict("0 pub/sub messages")).contains(false);
		assertThat(row("0 pub/sub messages").measured()).contains("1 in 1,000 lock+unlocks");
	}

	@Test
	void oneKeyIsJudgedAgainstRedissonsFasterVariant() {
		jmh("one-key", "redisson-lease", 1000, 0);
		jmh("one-key", "redisson-watchdog", 2000, 0);
		jmh("one-key", "distlock-template", 2500, 0);
		cpu("one-key", "redisson-watchdog", 100, 18.0, 1000);
		cpu("one-key", "distlock-template", 100, 12.0, 1000);
		assertThat(verdict("16 threads, one key")).contains(false);
		assertThat(row("16 threads, one key").measured())
			.hasValueSatisfying((measured) -> assertThat(measured).startsWith("1.25× Redisson RLock, watchdog"));
	}

	@Test
	void oneKeyNeedsFewerCommandsPerHandoffThanRedisson() {
		jmh("one-key", "redisson-lease", 2000, 0);
		jmh("one-key", "distlock-template", 2600, 0);
		cpu("one-key", "redisson-lease", 100, 12.0, 1000);
		cpu("one-key", "distlock-template", 100, 12.0, 1000);
		assertThat(verdict("16 threads, one key")).contains(false);
	}

	@Test
	void handoffIsJudgedAgainstRedissonsLowerMedian() {
		handoff("redisson-lease", 400);
		handoff("redisson-watchdog", 300);
		handoff("distlock-template", 350);
		assertThat(verdict("Handoff latency p50")).contains(false);
		assertThat(row("Handoff latency p50").measured())
			.hasValueSatisfying((measured) -> assertThat(measured).endsWith("(Redisson RLock, watchdog)"));
	}

	@Test
	void renewalNeedsAtMostOneScriptCallPerHundredLeasesRenewed() {
		// 10,000 leases of 3 s, renewed every second for 10 s: 100,000 renewals.
		renewal("distlock-template", 0.5, 0.2, 1000);
		renewal("redisson-watchdog", 0.6, 0.2, 930);
		assertThat(verdict("script calls ≤ 1 per 100 leases renewed")).contains(true);
		assertThat(verdict("LockTemplate's JVM CPU ≤ Redisson's")).contains(true);
		assertThat(verdict("LockTemplate's Redis CPU ≤ Redisson's")).contains(true);
		renewal("distlock-template", 0.7, 0.3, 1100);
		assertThat(verdict("script calls ≤ 1 per 100 leases renewed")).contains(false);
		assertThat(verdict("LockTemplate's JVM CPU ≤ Redisson's")).contains(false);
		assertThat(verdict("LockTemplate's Redis CPU ≤ Redisson's")).contains(false);
	}

	@Test
	void redlockIsJudgedAgainstOneNode() {
		jmh("redlock", "nodes-1", 1000, 0);
		jmh("redlock", "nodes-3", 600, 0);
		jmh("redlock", "nodes-5", 440, 0);
		assertThat(verdict("3 nodes ≥ 0.60×")).contains(true);
		assertThat(verdict("5 nodes ≥ 0.45×")).contains(false);
	}

	@Test
	void targetsOfScenariosThatDidNotRunAreNotMeasured() {
		List<Target> targets = Targets.evaluate(ResultSet.load(this.results));
		assertThat(targets).filteredOn((target) -> !target.target().startsWith("Kept"))
			.allSatisfy((target) -> assertThat(target.met()).isEmpty());
	}

	private Optional<Boolean> verdict(String target) {
		return row(target).met();
	}

	private Target row(String target) {
		List<Target> rows = Targets.evaluate(ResultSet.load(this.results))
			.stream()
			.filter((row) -> row.target().contains(target))
			.toList();
		assertThat(rows).as("targets containing '%s'", target).hasSize(1);
		return rows.get(0);
	}

	private void jmh(String scenario, String key, double throughput, double allocation) {
		BenchmarkFiles.writeString(BenchmarkFiles.jmh(this.results, scenario).resolve(key + "-r1.json"),
				"[{\"primaryMetric\":{\"rawData\":[[" + throughput + "," + throughput + "]]},"
						+ "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"rawData\":[[" + allocation + "]]}}}]");
	}

	private void cpu(String scenario, String key, long jvmMicros, double commands, long publishes) {
		long operations = 1000;
		BenchmarkFiles.writeString(BenchmarkFiles.cpu(this.results, scenario, key).resolve("cpu.json"),
				"{\"operations\":" + operations + ",\"jvmCpuNanos\":" + jvmMicros * 1000 * operations
						+ ",\"redisCpuNanos\":0,\"redisCommands\":" + Math.round(commands * operations)
						+ ",\"pubsubMessages\":" + publishes + "}");
	}

	private void handoff(String contender, long micros) {
		Histogram histogram = new Histogram(3);
		histogram.recordValue(micros);
		BenchmarkFiles.writeString(this.results.resolve("handoff").resolve(contender + "-r1.json"),
				"{\"histogram\":\"" + BenchmarkFiles.encode(histogram) + "\"}");
	}

	private void renewal(String contender, double jvmCpuSeconds, double redisCpuSeconds, long scriptCalls) {
		BenchmarkFiles.writeString(this.results.resolve("renewal").resolve(contender + ".json"),
				"{\"locks\":10000,\"leaseMillis\":3000,\"held\":{\"windowSeconds\":10,\"jvmCpuSeconds\":"
						+ jvmCpuSeconds + ",\"redisCpuSeconds\":" + redisCpuSeconds + ",\"redisScriptCalls\":"
						+ scriptCalls + "}}");
	}

}
