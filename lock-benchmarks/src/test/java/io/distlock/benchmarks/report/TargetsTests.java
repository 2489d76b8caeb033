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
		jmh("uncontended", "redisson-lease", 800, 0);
		jmh("uncontended", "redisson-watchdog", 870, 0);
		cpu("uncontended", "lettuce-floor", 100, 50, 4.0, 0);
		cpu("uncontended", "distlock-template", 110, 60, 8.0, 0);
		assertThat(verdict("LockTemplate ≥ 0.95× the floor's throughput")).contains(true);
		assertThat(verdict("LockTemplate ≥ 1.10× Redisson's faster variant's throughput")).contains(true);
		assertThat(row("LockTemplate ≥ 1.10× Redisson's faster variant's throughput").measured())
			.contains("1.10× Redisson RLock, watchdog");
		assertThat(verdict("Redis CPU per lock+unlock ≤ 1.20× the floor's")).contains(true);
		assertThat(row("Redis CPU per lock+unlock ≤ 1.20× the floor's").measured())
			.contains("60 µs against 50 µs: 1.20×; 8.0 against 4.0 Redis commands");
		assertThat(verdict("JVM CPU per lock+unlock ≤ 1.10× the floor's")).contains(true);
		assertThat(verdict("allocation per lock+unlock ≤ 2× the floor's")).contains(true);
		assertThat(verdict("Kept: Uncontended lock+unlock, 1 thread: LockTemplate 0 pub/sub messages")).contains(true);
	}

	@Test
	void uncontendedTargetsAreMissedAboveTheFloorsCost() {
		jmh("uncontended", "lettuce-floor", 1000, 3000);
		jmh("uncontended", "distlock-template", 940, 6100);
		jmh("uncontended", "redisson-lease", 900, 0);
		cpu("uncontended", "lettuce-floor", 100, 50, 4.0, 0);
		cpu("uncontended", "distlock-template", 112, 61, 8.0, 1);
		assertThat(verdict("LockTemplate ≥ 0.95× the floor's throughput")).contains(false);
		assertThat(verdict("LockTemplate ≥ 1.10× Redisson's faster variant's throughput")).contains(false);
		assertThat(verdict("Redis CPU per lock+unlock ≤ 1.20× the floor's")).contains(false);
		assertThat(verdict("JVM CPU per lock+unlock ≤ 1.10× the floor's")).contains(false);
		assertThat(verdict("allocation per lock+unlock ≤ 2× the floor's")).contains(false);
		assertThat(verdict("0 pub/sub messages")).contains(false);
		assertThat(row("0 pub/sub messages").measured()).contains("1 in 1,000 lock+unlocks");
	}

	@Test
	void ratiosAreJudgedAsShown() {
		jmh("uncontended", "lettuce-floor", 1000, 0);
		jmh("uncontended", "distlock-template", 949.6, 0);
		assertThat(row("LockTemplate ≥ 0.95× the floor's throughput").measured()).contains("0.95× the floor");
		assertThat(verdict("LockTemplate ≥ 0.95× the floor's throughput")).contains(true);
		// 0.945 is a shade below it as a double: shown and judged alike, whichever way.
		jmh("uncontended", "distlock-template", 945, 0);
		assertThat(verdict("LockTemplate ≥ 0.95× the floor's throughput"))
			.contains(row("LockTemplate ≥ 0.95× the floor's throughput").measured().orElseThrow().startsWith("0.95×"));
		jmh("uncontended", "distlock-template", 944.9, 0);
		assertThat(row("LockTemplate ≥ 0.95× the floor's throughput").measured()).contains("0.94× the floor");
		assertThat(verdict("LockTemplate ≥ 0.95× the floor's throughput")).contains(false);
	}

	@Test
	void distinctKeysAreJudgedAgainstTheFloorAndBothModesOfSpringIntegration() {
		jmh("distinct-keys", "lettuce-floor", 1000, 0);
		jmh("distinct-keys", "distlock-template", 900, 0);
		jmh("distinct-keys", "spring-integration", 850, 0);
		jmh("distinct-keys", "spring-integration-spin", 950, 0);
		assertThat(verdict("16 threads, distinct keys: LockTemplate ≥ 0.90× the floor's throughput")).contains(true);
		assertThat(verdict("distinct keys: LockTemplate ahead of Spring Integration RedisLockRegistry, pub/sub"))
			.contains(true);
		assertThat(verdict("distinct keys: LockTemplate ahead of Spring Integration RedisLockRegistry, spin"))
			.contains(false);
		assertThat(row("ahead of Spring Integration RedisLockRegistry, spin").measured())
			.contains("0.95× its throughput");
	}

	@Test
	void annotationIsComparedWithTheTemplateOfTheSameAutoRenewSetting() {
		jmh("uncontended", "distlock-template", 1000, 0);
		jmh("uncontended", "distlock-annotation", 900, 0);
		jmh("uncontended", "distlock-template-no-renew", 1000, 0);
		jmh("uncontended", "distlock-annotation-no-renew", 850, 0);
		handoff("distlock-template", 350);
		handoff("distlock-annotation", 400);
		assertThat(Targets.evaluate(ResultSet.load(this.results))).filteredOn((t) -> t.target().contains("within"))
			.hasSize(8);
		assertThat(verdict("Uncontended lock+unlock, 1 thread: @DistributedLocked within 0.90× of LockTemplate, "
				+ "autoRenew on"))
			.contains(true);
		assertThat(verdict("Uncontended lock+unlock, 1 thread: @DistributedLocked(autoRenew = false) within 0.90× "
				+ "of LockTemplate withAutoRenew(false)"))
			.contains(false);
		assertThat(row("Uncontended lock+unlock, 1 thread: @DistributedLocked(autoRenew = false)").measured())
			.contains("0.85× distlock LockTemplate, withAutoRenew(false)");
		assertThat(verdict("Handoff latency p50: @DistributedLocked within 0.90× of LockTemplate, autoRenew on"))
			.contains(false);
		assertThat(row("Handoff latency p50: @DistributedLocked within").measured())
			.contains("400 µs against 350 µs: 0.88×");
		assertThat(verdict("16 threads, one key: @DistributedLocked within")).isEmpty();
		assertThat(verdict("Handoff latency p50: @DistributedLocked(autoRenew = false)")).isEmpty();
	}

	@Test
	void oneKeyIsJudgedAgainstRedissonsFasterVariant() {
		jmh("one-key", "redisson-lease", 1000, 0);
		jmh("one-key", "redisson-watchdog", 2000, 0);
		jmh("one-key", "distlock-template", 2500, 0);
		cpu("one-key", "redisson-watchdog", 100, 50, 18.0, 1000);
		cpu("one-key", "distlock-template", 100, 50, 12.0, 1000);
		assertThat(verdict("16 threads, one key: LockTemplate")).contains(false);
		assertThat(row("16 threads, one key: LockTemplate").measured())
			.contains("1.25× Redisson RLock, watchdog; 12.0 against 18.0 Redis commands per handoff");
		jmh("one-key", "distlock-template", 3000, 0);
		assertThat(verdict("16 threads, one key: LockTemplate")).contains(true);
	}

	@Test
	void handoffIsJudgedAgainstRedissonsLowerMedianAndSpringIntegration() {
		handoff("redisson-lease", 400);
		handoff("redisson-watchdog", 300);
		handoff("spring-integration", 260);
		handoff("distlock-template", 270);
		assertThat(verdict("Handoff latency p50: LockTemplate ≤ 0.90× Redisson's faster variant's")).contains(true);
		assertThat(row("Handoff latency p50: LockTemplate ≤ 0.90×").measured())
			.hasValueSatisfying((measured) -> assertThat(measured).endsWith("(Redisson RLock, watchdog): 0.90×"));
		assertThat(verdict("Handoff latency p50: LockTemplate ahead of Spring Integration")).contains(false);
		handoff("distlock-template", 290);
		assertThat(verdict("Handoff latency p50: LockTemplate ≤ 0.90×")).contains(false);
	}

	@Test
	void renewalIsJudgedAgainstRedisson() {
		// 10,000 leases of 3 s, renewed every second for 10 s: 100,000 renewals.
		renewal("distlock-template", 0.5, 0.2, 1000);
		renewal("redisson-watchdog", 0.6, 0.2, 930);
		assertThat(verdict("Kept: Renewing 10,000 held locks: LockTemplate's script calls ≤ 1 per 100")).contains(true);
		assertThat(verdict("LockTemplate's JVM CPU ≤ Redisson's")).contains(true);
		assertThat(verdict("LockTemplate's Redis CPU ≤ Redisson's")).contains(true);
		renewal("distlock-template", 0.7, 0.3, 1100);
		assertThat(verdict("script calls ≤ 1 per 100 leases renewed")).contains(false);
		assertThat(verdict("LockTemplate's JVM CPU ≤ Redisson's")).contains(false);
		assertThat(verdict("LockTemplate's Redis CPU ≤ Redisson's")).contains(false);
	}

	@Test
	void renewalCpuIsJudgedAsShown() {
		renewal("distlock-template", 0.6004, 0.2, 1000);
		renewal("redisson-watchdog", 0.6, 0.2, 1000);
		assertThat(row("LockTemplate's JVM CPU ≤ Redisson's").measured()).contains("6.0% against 6.0% of a core");
		assertThat(verdict("LockTemplate's JVM CPU ≤ Redisson's")).contains(true);
	}

	@Test
	void redlockIsJudgedAgainstOneNode() {
		jmh("redlock", "nodes-1", 1000, 0);
		jmh("redlock", "nodes-3", 600, 0);
		jmh("redlock", "nodes-5", 440, 0);
		assertThat(verdict("Redlock, 1 thread: 3 nodes ≥ 0.60×")).contains(true);
		assertThat(verdict("Kept: Redlock, 1 thread: 5 nodes ≥ 0.45×")).contains(false);
	}

	@Test
	void anOverlapInAnyRunMissesMutualExclusion() {
		jmh("one-key", "distlock-template", 1000, 0);
		assertThat(verdict("no two holders ever overlap")).contains(true);
		assertThat(row("no two holders ever overlap").measured()).contains("no overlap in 1 runs");
		BenchmarkFiles.writeString(BenchmarkFiles.overlapMarker(this.results, "one-key-redis-7.0", "redisson-lease"),
				"1\n");
		assertThat(verdict("no two holders ever overlap")).contains(false);
		assertThat(row("no two holders ever overlap").measured()).contains("OVERLAP: Redisson RLock, lease time");
	}

	@Test
	void targetsOfScenariosThatDidNotRunAreNotMeasured() {
		List<Target> targets = Targets.evaluate(ResultSet.load(this.results));
		assertThat(targets).isNotEmpty().allSatisfy((target) -> {
			assertThat(target.met()).isEmpty();
			assertThat(target.measured()).isEmpty();
		});
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

	private void cpu(String scenario, String key, long jvmMicros, long redisMicros, double commands, long publishes) {
		long operations = 1000;
		BenchmarkFiles.writeString(BenchmarkFiles.cpu(this.results, scenario, key).resolve("cpu.json"),
				"{\"operations\":" + operations + ",\"jvmCpuNanos\":" + jvmMicros * 1000 * operations
						+ ",\"redisCpuNanos\":" + redisMicros * 1000 * operations + ",\"redisCommands\":"
						+ Math.round(commands * operations) + ",\"pubsubMessages\":" + publishes + "}");
	}

	private void handoff(String contender, long micros) {
		Histogram histogram = new Histogram(3);
		histogram.recordValue(micros * 1000);
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
