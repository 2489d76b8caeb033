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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.distlock.benchmarks.Scenario;
import io.distlock.benchmarks.contenders.Contender;
import io.distlock.benchmarks.report.ResultSet.CpuPerOperation;

/**
 * Issue 18's targets, each measured and judged from one run's results: nothing in a row
 * is written by hand but the target itself.
 */
final class Targets {

	private static final String FLOOR = Contender.LETTUCE_FLOOR.id();

	private static final String TEMPLATE = Contender.DISTLOCK_TEMPLATE.id();

	private static final String REDISSON_WATCHDOG = Contender.REDISSON_WATCHDOG.id();

	private static final List<String> REDISSON = List.of(Contender.REDISSON_LEASE.id(), REDISSON_WATCHDOG);

	private final ResultSet results;

	private final List<Target> rows = new ArrayList<>();

	private Targets(ResultSet results) {
		this.results = results;
	}

	/**
	 * Measure and judge every target.
	 * @param results the results of a run
	 * @return the targets in report order
	 */
	static List<Target> evaluate(ResultSet results) {
		Targets targets = new Targets(results);
		targets.uncontended();
		targets.distinctKeys();
		targets.oneKey();
		targets.handoff();
		targets.renewal();
		targets.redlock();
		targets.mutualExclusion();
		return List.copyOf(targets.rows);
	}

	private void uncontended() {
		String scenario = Scenario.UNCONTENDED.id();
		String prefix = "Uncontended lock+unlock, 1 thread: LockTemplate ";
		Optional<Double> throughput = this.results.ratio(scenario, TEMPLATE, FLOOR);
		add(prefix + "≥ 0.95× the floor's throughput", throughput.map((ratio) -> times(ratio) + " the floor"),
				throughput.map((ratio) -> ratio >= 0.95));
		Optional<CpuPerOperation> cpu = this.results.cpu(scenario, TEMPLATE);
		Optional<CpuPerOperation> floorCpu = this.results.cpu(scenario, FLOOR);
		Optional<Double> jvm = cpu.flatMap((c) -> floorCpu.map((f) -> c.jvm() / f.jvm()));
		add(prefix + "JVM CPU per lock+unlock ≤ 1.15× the floor's", jvm.map((ratio) -> String.format(Locale.ROOT,
				"%.0f µs against %.0f µs: %s", cpu.get().jvm(), floorCpu.get().jvm(), times(ratio))),
				jvm.map((ratio) -> ratio <= 1.15));
		Optional<Summary> allocation = this.results.allocation(scenario, TEMPLATE);
		Optional<Summary> floorAllocation = this.results.allocation(scenario, FLOOR);
		Optional<Double> bytes = allocation.flatMap((a) -> floorAllocation.map((f) -> a.mean() / f.mean()));
		add(prefix + "allocation per lock+unlock ≤ 2× the floor's",
				bytes.map((ratio) -> ReportGenerator.bytes(allocation.get().mean()) + " against "
						+ ReportGenerator.bytes(floorAllocation.get().mean()) + ": " + times(ratio)),
				bytes.map((ratio) -> ratio <= 2.0));
		// Judged on the number as shown, so that the verdict never contradicts it.
		Optional<Double> commands = cpu.map((c) -> round(c.commands()));
		add(prefix + "≤ 7 Redis commands per lock+unlock (the scripts' included)",
				commands.map((count) -> String.format(Locale.ROOT, "%.1f", count)),
				commands.map((count) -> count <= 7));
		Optional<CpuPerOperation> publishing = cpu.filter((c) -> c.publishes().isPresent());
		add(prefix + "0 pub/sub messages", publishing.map((c) -> String.format(Locale.ROOT, "%,d in %,d lock+unlocks",
				c.publishes().getAsLong(), c.operations())), publishing.map((c) -> c.publishes().getAsLong() == 0));
	}

	private void distinctKeys() {
		Optional<Double> ratio = this.results.ratio(Scenario.DISTINCT_KEYS.id(), TEMPLATE, FLOOR);
		add("16 threads, distinct keys: LockTemplate ≥ 0.95× the floor's throughput",
				ratio.map((r) -> times(r) + " the floor"), ratio.map((r) -> r >= 0.95));
	}

	private void oneKey() {
		String scenario = Scenario.ONE_KEY.id();
		String redisson = this.results.fastest(scenario, REDISSON);
		Optional<Double> ratio = this.results.ratio(scenario, TEMPLATE, redisson);
		Optional<Double> commands = this.results.cpu(scenario, TEMPLATE).map((c) -> round(c.commands()));
		Optional<Double> redissonCommands = this.results.cpu(scenario, redisson).map((c) -> round(c.commands()));
		Optional<String> measured = ratio.map((r) -> times(r) + " " + label(redisson)
				+ commands.flatMap((c) -> redissonCommands
					.map((rc) -> String.format(Locale.ROOT, "; %.1f against %.1f Redis commands per handoff", c, rc)))
					.orElse(""));
		Optional<Boolean> met = ratio
			.flatMap((r) -> commands.flatMap((c) -> redissonCommands.map((rc) -> r >= 1.3 && c < rc)));
		add("16 threads, one key: LockTemplate ≥ 1.3× Redisson's faster variant, with fewer Redis commands per "
				+ "handoff", measured, ratio.isPresent() ? met : Optional.empty());
	}

	private void handoff() {
		String redisson = REDISSON.get(0);
		for (String candidate : REDISSON) {
			Optional<Double> p50 = this.results.handoff(candidate).map(Percentiles::p50);
			Optional<Double> best = this.results.handoff(redisson).map(Percentiles::p50);
			if (p50.isPresent() && (best.isEmpty() || p50.get() < best.get())) {
				redisson = candidate;
			}
		}
		String faster = redisson;
		Optional<Double> p50 = this.results.handoff(TEMPLATE).map(Percentiles::p50);
		Optional<Double> redissonP50 = this.results.handoff(faster).map(Percentiles::p50);
		add("Handoff latency p50: LockTemplate ≤ Redisson's faster variant",
				p50.flatMap((p) -> redissonP50.map((r) -> ReportGenerator.micros(p) + " against "
						+ ReportGenerator.micros(r) + " (" + label(faster) + ")")),
				p50.flatMap((p) -> redissonP50.map((r) -> p <= r)));
	}

	private void renewal() {
		Optional<JsonNode> template = this.results.renewal(TEMPLATE);
		Optional<JsonNode> redisson = this.results.renewal(REDISSON_WATCHDOG);
		String locks = template.map((node) -> String.format(Locale.ROOT, "%,d", node.path("locks").asLong()))
			.orElse("10,000");
		String prefix = "Renewing " + locks + " held locks: LockTemplate's ";
		for (String field : List.of("jvmCpuSeconds", "redisCpuSeconds")) {
			Optional<Double> mine = template.flatMap((node) -> share(node, field));
			Optional<Double> theirs = redisson.flatMap((node) -> share(node, field));
			add(prefix + (field.startsWith("jvm") ? "JVM CPU" : "Redis CPU") + " ≤ Redisson's",
					mine.flatMap((m) -> theirs
						.map((t) -> String.format(Locale.ROOT, "%.1f%% against %.1f%% of a core", 100 * m, 100 * t))),
					mine.flatMap((m) -> theirs.map((t) -> m <= t)));
		}
		Optional<Double> perHundred = template.flatMap(Targets::scriptCallsPerHundredRenewals);
		add(prefix + "script calls ≤ 1 per 100 leases renewed",
				perHundred.map((calls) -> String.format(Locale.ROOT, "%.2f per 100", calls)),
				perHundred.map((calls) -> Math.round(calls * 100) / 100.0 <= 1));
	}

	private void redlock() {
		String scenario = Scenario.REDLOCK.id();
		for (String nodes : List.of("3", "5")) {
			double target = nodes.equals("3") ? 0.6 : 0.45;
			Optional<Double> ratio = this.results.ratio(scenario, "nodes-" + nodes, "nodes-1");
			add("Redlock, 1 thread: " + nodes + " nodes ≥ " + String.format(Locale.ROOT, "%.2f× ", target)
					+ "one node's throughput", ratio.map((r) -> times(r) + " one node"), ratio.map((r) -> r >= target));
		}
	}

	private void mutualExclusion() {
		List<String> overlapping = new ArrayList<>();
		for (Contender contender : Contender.values()) {
			if (this.results.overlapped(Scenario.ONE_KEY.id(), contender.id())
					|| this.results.handoffOverlapped(contender.id())) {
				overlapping.add(contender.label());
			}
		}
		add("Kept: no two holders ever overlap (16 threads on one key, handoff)",
				Optional.of(overlapping.isEmpty() ? "no overlap seen" : "OVERLAP: " + String.join(", ", overlapping)),
				Optional.of(overlapping.isEmpty()));
	}

	/**
	 * The share of one core that a renewal measurement's field took over its window.
	 */
	private static Optional<Double> share(JsonNode node, String field) {
		double window = node.path("held").path("windowSeconds").asDouble();
		return (window > 0) ? Optional.of(node.path("held").path(field).asDouble() / window) : Optional.empty();
	}

	/**
	 * Script calls per 100 lease renewals: every lease is renewed each third of its lease
	 * time, as all contenders' watchdogs do by default.
	 */
	static Optional<Double> scriptCallsPerHundredRenewals(JsonNode node) {
		double window = node.path("held").path("windowSeconds").asDouble();
		double leaseSeconds = node.path("leaseMillis").asDouble() / 1000;
		double renewals = node.path("locks").asDouble() * window / (leaseSeconds / 3);
		return (renewals > 0) ? Optional.of(100 * node.path("held").path("redisScriptCalls").asDouble() / renewals)
				: Optional.empty();
	}

	private void add(String target, Optional<String> measured, Optional<Boolean> met) {
		this.rows.add(new Target(target, measured, met));
	}

	private static double round(double value) {
		return Math.round(value * 10) / 10.0;
	}

	private static String times(double ratio) {
		return ReportGenerator.times(ratio);
	}

	private static String label(String id) {
		return Contender.of(id).label();
	}

	/**
	 * One target with what the run measured.
	 *
	 * @param target what is aimed for
	 * @param measured the measured value, empty when not measured
	 * @param met whether the target was met, empty when not measured
	 */
	record Target(String target, Optional<String> measured, Optional<Boolean> met) {

	}

}
