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
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.JsonNode;

import io.distlock.benchmarks.BenchmarkMain;
import io.distlock.benchmarks.Scenario;
import io.distlock.benchmarks.contenders.Contender;
import io.distlock.benchmarks.report.ResultSet.CpuPerOperation;

/**
 * Issue 33's targets, each measured and judged from one run's results: nothing in a row
 * is written by hand but the target itself. A ratio or value is judged as the report
 * shows it (rounded), so that a verdict never contradicts its number; a target whose
 * measurements are missing is not measured. Rows that start with "Kept" carry over
 * earlier targets that issue 33 keeps.
 */
final class Targets {

	private static final String FLOOR = Contender.LETTUCE_FLOOR.id();

	private static final String TEMPLATE = Contender.DISTLOCK_TEMPLATE.id();

	private static final List<String> REDISSON = List.of(Contender.REDISSON_LEASE.id(),
			Contender.REDISSON_WATCHDOG.id());

	private static final String SPRING_INTEGRATION = Contender.SPRING_INTEGRATION.id();

	private static final String UNCONTENDED = "Uncontended lock+unlock, 1 thread: ";

	private static final String DISTINCT_KEYS = "16 threads, distinct keys: ";

	private static final String ONE_KEY = "16 threads, one key: ";

	private static final String HANDOFF = "Handoff latency p50: ";

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
		targets.annotation();
		targets.oneKey();
		targets.handoff();
		targets.renewal();
		targets.redlock();
		targets.mutualExclusion();
		return List.copyOf(targets.rows);
	}

	private void uncontended() {
		String scenario = Scenario.UNCONTENDED.id();
		String prefix = UNCONTENDED + "LockTemplate ";
		throughput(prefix + "≥ 0.95× the floor's throughput", scenario, TEMPLATE, FLOOR, "the floor", 0.95);
		String redisson = this.results.fastest(scenario, REDISSON);
		throughput(prefix + "≥ 1.10× Redisson's faster variant's throughput", scenario, TEMPLATE, redisson,
				label(redisson), 1.1);
		Optional<CpuPerOperation> cpu = this.results.cpu(scenario, TEMPLATE);
		Optional<CpuPerOperation> floor = this.results.cpu(scenario, FLOOR);
		Optional<Double> redis = ratio(cpu, floor, CpuPerOperation::redis);
		add(prefix + "Redis CPU per lock+unlock ≤ 1.20× the floor's",
				redis.map((r) -> String.format(Locale.ROOT,
						"%.0f µs against %.0f µs: %s; %.1f against %.1f Redis " + "commands", cpu.get().redis(),
						floor.get().redis(), times(r), cpu.get().commands(), floor.get().commands())),
				redis.map((r) -> shown(r) <= 1.2));
		Optional<Double> jvm = ratio(cpu, floor, CpuPerOperation::jvm);
		add(prefix + "JVM CPU per lock+unlock ≤ 1.10× the floor's", jvm.map((r) -> String.format(Locale.ROOT,
				"%.0f µs against %.0f µs: %s", cpu.get().jvm(), floor.get().jvm(), times(r))),
				jvm.map((r) -> shown(r) <= 1.1));
		Optional<Summary> allocation = this.results.allocation(scenario, TEMPLATE);
		Optional<Summary> floorAllocation = this.results.allocation(scenario, FLOOR);
		Optional<Double> bytes = allocation.flatMap((a) -> floorAllocation.map((f) -> a.mean() / f.mean()));
		add(prefix + "allocation per lock+unlock ≤ 2× the floor's",
				bytes.map((r) -> ReportGenerator.bytes(allocation.get().mean()) + " against "
						+ ReportGenerator.bytes(floorAllocation.get().mean()) + ": " + times(r)),
				bytes.map((r) -> shown(r) <= 2.0));
		Optional<CpuPerOperation> publishing = cpu.filter((c) -> c.publishes().isPresent());
		add("Kept: " + prefix + "0 pub/sub messages", publishing.map((c) -> String.format(Locale.ROOT,
				"%,d in %,d lock+unlocks", c.publishes().getAsLong(), c.operations())),
				publishing.map((c) -> c.publishes().getAsLong() == 0));
	}

	private void distinctKeys() {
		String scenario = Scenario.DISTINCT_KEYS.id();
		throughput(DISTINCT_KEYS + "LockTemplate ≥ 0.90× the floor's throughput", scenario, TEMPLATE, FLOOR,
				"the floor", 0.9);
		for (Contender registry : List.of(Contender.SPRING_INTEGRATION, Contender.SPRING_INTEGRATION_SPIN)) {
			Optional<Double> ratio = this.results.ratio(scenario, TEMPLATE, registry.id());
			add(DISTINCT_KEYS + "LockTemplate ahead of " + registry.label() + " (higher throughput)",
					ratio.map((r) -> times(r) + " its throughput"), ratio.map((r) -> shown(r) > 1));
		}
	}

	/**
	 * The annotation against the template in every scenario, each autoRenew setting
	 * against its like.
	 */
	private void annotation() {
		for (boolean autoRenew : List.of(true, false)) {
			String annotation = autoRenew ? Contender.DISTLOCK_ANNOTATION.id()
					: Contender.DISTLOCK_ANNOTATION_NO_RENEW.id();
			String template = autoRenew ? TEMPLATE : Contender.DISTLOCK_TEMPLATE_NO_RENEW.id();
			String comparison = (autoRenew ? "@DistributedLocked within 0.90× of LockTemplate, autoRenew on"
					: "@DistributedLocked(autoRenew = false) within 0.90× of LockTemplate withAutoRenew(false)");
			throughput(UNCONTENDED + comparison + " (throughput)", Scenario.UNCONTENDED.id(), annotation, template,
					label(template), 0.9);
			throughput(DISTINCT_KEYS + comparison + " (throughput)", Scenario.DISTINCT_KEYS.id(), annotation, template,
					label(template), 0.9);
			throughput(ONE_KEY + comparison + " (throughput)", Scenario.ONE_KEY.id(), annotation, template,
					label(template), 0.9);
			Optional<Double> mine = this.results.handoff(annotation).map(Percentiles::p50);
			Optional<Double> theirs = this.results.handoff(template).map(Percentiles::p50);
			Optional<Double> ratio = mine.flatMap((m) -> theirs.map((t) -> t / m));
			add(HANDOFF + comparison + " (LockTemplate's p50 ÷ the annotation's)",
					ratio.map((r) -> ReportGenerator.micros(mine.get()) + " against "
							+ ReportGenerator.micros(theirs.get()) + ": " + times(r)),
					ratio.map((r) -> shown(r) >= 0.9));
		}
	}

	private void oneKey() {
		String scenario = Scenario.ONE_KEY.id();
		String redisson = this.results.fastest(scenario, REDISSON);
		Optional<Double> ratio = this.results.ratio(scenario, TEMPLATE, redisson);
		Optional<Double> commands = this.results.cpu(scenario, TEMPLATE).map(CpuPerOperation::commands);
		Optional<Double> redissonCommands = this.results.cpu(scenario, redisson).map(CpuPerOperation::commands);
		add(ONE_KEY + "LockTemplate ≥ 1.50× Redisson's faster variant's throughput",
				ratio.map((r) -> times(r) + " " + label(redisson) + commands.flatMap((c) -> redissonCommands
					.map((rc) -> String.format(Locale.ROOT, "; %.1f against %.1f Redis commands per handoff", c, rc)))
					.orElse("")),
				ratio.map((r) -> shown(r) >= 1.5));
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
		Optional<Double> ratio = p50.flatMap((p) -> redissonP50.map((r) -> p / r));
		add(HANDOFF + "LockTemplate ≤ 0.90× Redisson's faster variant's",
				ratio.map((r) -> ReportGenerator.micros(p50.get()) + " against "
						+ ReportGenerator.micros(redissonP50.get()) + " (" + label(faster) + "): " + times(r)),
				ratio.map((r) -> shown(r) <= 0.9));
		Optional<Double> registryP50 = this.results.handoff(SPRING_INTEGRATION).map(Percentiles::p50);
		add(HANDOFF + "LockTemplate ahead of " + label(SPRING_INTEGRATION) + " (p50 ≤ its)", p50.flatMap(
				(p) -> registryP50.map((r) -> ReportGenerator.micros(p) + " against " + ReportGenerator.micros(r))),
				p50.flatMap((p) -> registryP50.map((r) -> shownMicros(p) <= shownMicros(r))));
	}

	private void renewal() {
		Optional<JsonNode> template = this.results.renewal(TEMPLATE);
		Optional<JsonNode> redisson = this.results.renewal(Contender.REDISSON_WATCHDOG.id());
		String locks = template.map((node) -> String.format(Locale.ROOT, "%,d", node.path("locks").asLong()))
			.orElse("10,000");
		String prefix = "Renewing " + locks + " held locks: LockTemplate's ";
		for (String field : List.of("jvmCpuSeconds", "redisCpuSeconds")) {
			// In percent of a core, to one decimal, as shown.
			Optional<Double> mine = template.flatMap((node) -> share(node, field)).map((m) -> rounded(100 * m, 1));
			Optional<Double> theirs = redisson.flatMap((node) -> share(node, field)).map((t) -> rounded(100 * t, 1));
			add(prefix + (field.startsWith("jvm") ? "JVM CPU" : "Redis CPU") + " ≤ Redisson's", mine
				.flatMap((m) -> theirs.map((t) -> String.format(Locale.ROOT, "%.1f%% against %.1f%% of a core", m, t))),
					mine.flatMap((m) -> theirs.map((t) -> m <= t)));
		}
		Optional<Double> perHundred = template.flatMap(Targets::scriptCallsPerHundredRenewals);
		add("Kept: " + prefix + "script calls ≤ 1 per 100 leases renewed",
				perHundred.map((calls) -> String.format(Locale.ROOT, "%.2f per 100", calls)),
				perHundred.map((calls) -> rounded(calls, 2) <= 1));
	}

	private void redlock() {
		String scenario = Scenario.REDLOCK.id();
		throughput("Redlock, 1 thread: 3 nodes ≥ 0.60× one node's throughput", scenario, "nodes-3", "nodes-1",
				"one node", 0.6);
		throughput("Kept: Redlock, 1 thread: 5 nodes ≥ 0.45× one node's throughput", scenario, "nodes-5", "nodes-1",
				"one node", 0.45);
	}

	private void mutualExclusion() {
		List<String> scenarios = List.of(Scenario.ONE_KEY.id(), BenchmarkMain.secondRedisResultId(Scenario.ONE_KEY));
		List<String> overlapping = new ArrayList<>();
		int runs = 0;
		for (Contender contender : Contender.values()) {
			boolean overlapped = this.results.handoffOverlapped(contender.id());
			runs += this.results.handoffRuns(contender.id());
			for (String scenario : scenarios) {
				overlapped |= this.results.overlapped(scenario, contender.id());
				runs += this.results.runs(scenario, contender.id());
			}
			if (overlapped) {
				overlapping.add(contender.label());
			}
		}
		boolean measured = runs > 0 || !overlapping.isEmpty();
		add("Kept: no two holders ever overlap in any run (16 threads on one key, on both Redis versions; handoff)",
				measured ? Optional.of(overlapping.isEmpty() ? String.format(Locale.ROOT, "no overlap in %d runs", runs)
						: "OVERLAP: " + String.join(", ", overlapping)) : Optional.empty(),
				measured ? Optional.of(overlapping.isEmpty()) : Optional.empty());
	}

	/**
	 * Add the row of a throughput ratio, judged as shown (to two decimals).
	 */
	private void throughput(String target, String scenario, String key, String baseline, String baselineName,
			double minimum) {
		Optional<Double> ratio = this.results.ratio(scenario, key, baseline);
		add(target, ratio.map((r) -> times(r) + " " + baselineName), ratio.map((r) -> shown(r) >= minimum));
	}

	private static Optional<Double> ratio(Optional<CpuPerOperation> cpu, Optional<CpuPerOperation> baseline,
			ToDoubleFunction<CpuPerOperation> measure) {
		return cpu.flatMap((c) -> baseline.filter((b) -> measure.applyAsDouble(b) > 0)
			.map((b) -> measure.applyAsDouble(c) / measure.applyAsDouble(b)));
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

	/**
	 * A ratio as {@link ReportGenerator#times(double)} shows it.
	 */
	private static double shown(double ratio) {
		return rounded(ratio, 2);
	}

	/**
	 * Microseconds as {@link ReportGenerator#micros(double)} shows them.
	 */
	private static double shownMicros(double micros) {
		if (micros >= 10_000) {
			return rounded(micros / 1000, 1) * 1000;
		}
		return rounded(micros, (micros >= 100) ? 0 : 1);
	}

	/**
	 * The value as {@code String.format} writes it with the given decimals: the number
	 * shown, not one rounded another way.
	 */
	private static double rounded(double value, int decimals) {
		return Double.parseDouble(String.format(Locale.ROOT, "%." + decimals + "f", value));
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
