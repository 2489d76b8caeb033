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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.BenchmarkMain;
import io.distlock.benchmarks.Scenario;
import io.distlock.benchmarks.contenders.Contender;

/**
 * Writes {@code benchmarks.md} and {@code benchmarks.svg} from the results of one run:
 * the machine line, the command, the targets with their verdicts, a table per scenario
 * with ratios to the floor, and the chart. Every number comes from the results directory;
 * the only hand-written text is the methodology and the analysis, which is kept apart in
 * {@value #ANALYSIS_FILE} beside the report, so that it can be rewritten after a run and
 * included with {@code --report-only}.
 */
public final class ReportGenerator {

	/**
	 * The hand-written analysis that the report includes, in the docs directory.
	 */
	public static final String ANALYSIS_FILE = "benchmarks-analysis.md";

	private static final String FLOOR = Contender.LETTUCE_FLOOR.id();

	private static final String TEMPLATE = Contender.DISTLOCK_TEMPLATE.id();

	private static final List<String> REDISSON = List.of(Contender.REDISSON_LEASE.id(),
			Contender.REDISSON_WATCHDOG.id());

	private static final List<String> RENEWING = List.of(TEMPLATE, Contender.REDISSON_WATCHDOG.id(),
			Contender.SPRING_INTEGRATION.id());

	private final ResultSet results;

	private final Path analysis;

	private final StringBuilder md = new StringBuilder();

	private ReportGenerator(ResultSet results, Path analysis) {
		this.results = results;
		this.analysis = analysis;
	}

	/**
	 * Generate the report.
	 * @param results the results directory of a run
	 * @param docs the directory to write {@code benchmarks.md} and {@code benchmarks.svg}
	 * to
	 * @param analysis the hand-written analysis to include
	 */
	public static void generate(Path results, Path docs, Path analysis) {
		ReportGenerator generator = new ReportGenerator(ResultSet.load(results), analysis);
		BenchmarkFiles.writeString(docs.resolve("benchmarks.md"), generator.markdown());
		BenchmarkFiles.writeString(docs.resolve("benchmarks.svg"), generator.chart());
	}

	/**
	 * Regenerate the report from existing results.
	 * @param args the results directory, the docs directory and, optionally, the analysis
	 * file (by default {@value #ANALYSIS_FILE} in the docs directory)
	 */
	public static void main(String[] args) {
		Path docs = Path.of(args[1]);
		generate(Path.of(args[0]), docs, (args.length > 2) ? Path.of(args[2]) : docs.resolve(ANALYSIS_FILE));
	}

	private String markdown() {
		JsonNode machine = this.results.machine();
		line("# distlock benchmarks");
		line();
		line("How distlock compares with a hand-written lock on raw Lettuce (the floor), Redisson and Spring "
				+ "Integration's `RedisLockRegistry`: measured side by side, in one run, on the same Redis, "
				+ "with the contenders interleaved. Ratios are taken within this run only; the absolute numbers "
				+ "belong to this machine.");
		line();
		line("**Machine:** " + machine.path("cores").asText("?") + " cores (" + machine.path("cpu").asText("?") + "), "
				+ machine.path("memoryGiB").asText("?") + " GiB, " + machine.path("os").asText("?") + "; JVM "
				+ machine.path("jvm").asText("?") + " (" + machine.path("jvmArgs").asText("") + "); Redis "
				+ machine.path("redisVersion").asText("?") + " (" + machine.path("redisBinary").asText("?")
				+ "), on loopback. A shared machine: other work ran beside the benchmark.");
		line();
		StringBuilder versions = new StringBuilder();
		ResultSet.versions(machine)
			.forEach((name, version) -> versions.append((versions.length() > 0) ? ", " : "")
				.append(name)
				.append(' ')
				.append(version));
		line("**Run:** " + machine.path("started").asText("?") + ", " + minutes(machine.path("durationSeconds"))
				+ ", commit `" + machine.path("commit").asText("?") + "`"
				+ (machine.path("quick").asBoolean() ? " — **a --quick smoke run: too short to quote**" : "")
				+ ". **Versions:** " + versions + ".");
		line();
		line("**Reproduce** from the repository root (about half an hour on 2 cores; it starts its own `redis-server`s on "
				+ "loopback through the test harness and stops them; results go to "
				+ "`lock-benchmarks/target/benchmark-results/`, this page and the chart are rewritten):");
		line();
		// DocumentationSnippetsTests: every block of the docs is a snippet or says why
		// not.
		line("<!-- not compiled: the command that made this page, BenchmarkMain.COMMAND -->");
		line("```bash");
		line(machine.path("command").asText(BenchmarkMain.COMMAND));
		line("```");
		line();
		line("![distlock against the floor, Redisson and Spring Integration](benchmarks.svg)");
		line();
		targets();
		uncontended(Scenario.UNCONTENDED.id(), "");
		breakdown();
		distinctKeys();
		oneKey(Scenario.ONE_KEY.id(), "");
		String secondRedis = ", Redis " + machine.path("secondRedisVersion").asText("7.0");
		uncontended(BenchmarkMain.secondRedisResultId(Scenario.UNCONTENDED), secondRedis);
		oneKey(BenchmarkMain.secondRedisResultId(Scenario.ONE_KEY), secondRedis);
		handoff();
		renewal();
		redlock();
		methodology(machine);
		analysis();
		return this.md.toString();
	}

	private void targets() {
		line("## Targets");
		line();
		line("Issue 33's targets, each computed from this run and judged on the number as shown; a missed target "
				+ "links to the analysis. Rows marked Kept are earlier targets that issue 33 keeps.");
		line();
		line("| target | measured | verdict |");
		line("| --- | --- | --- |");
		for (Targets.Target target : Targets.evaluate(this.results)) {
			String verdict = target.met()
				.map((ok) -> ok ? "met" : "**missed**, see [analysis](#analysis)")
				.orElse("not measured");
			line("| " + target.target() + " | " + target.measured().orElse("—") + " | " + verdict + " |");
		}
		line();
	}

	private void analysis() {
		line("## Analysis");
		line();
		line("<!-- Hand-written: included from docs/" + ANALYSIS_FILE
				+ " by ReportGenerator; edit that file, not this section. -->");
		line();
		if (Files.isRegularFile(this.analysis)) {
			try {
				line(Files.readString(this.analysis, StandardCharsets.UTF_8).strip());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		else {
			line("No analysis written for this run yet (docs/" + ANALYSIS_FILE + ").");
		}
	}

	private void uncontended(String scenario, String redis) {
		if (!redis.isEmpty() && this.results.runs(scenario, FLOOR) == 0) {
			return;
		}
		line("## Uncontended lock+unlock, 1 thread" + redis);
		line();
		line("One thread locks and unlocks one key that nobody else wants; nothing runs under the lock. "
				+ "Latency is the whole lock+unlock as the caller sees it. Allocation is JMH's `-prof gc` "
				+ "(`gc.alloc.rate.norm`): bytes allocated per lock+unlock by all threads of the JVM, the "
				+ "client's I/O threads included. Pub/sub messages count every `PUBLISH` and `SPUBLISH` "
				+ "(`INFO commandstats`, which counts the calls scripts make).");
		line();
		line("| contender | lock+unlock/s | × floor | p50 | p99 | p99.9 | CPU per lock+unlock: JVM / Redis "
				+ "| Redis commands per lock+unlock | pub/sub messages per lock+unlock | allocated per lock+unlock "
				+ "| × floor |");
		line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
		Optional<Summary> floorAllocation = this.results.allocation(scenario, FLOOR);
		for (Contender contender : Contender.in(redis.isEmpty() ? scenario : BenchmarkMain.SECOND_REDIS_STEP)) {
			String id = contender.id();
			Optional<Percentiles> latency = this.results.latencies(scenario, id);
			Optional<Summary> allocation = this.results.allocation(scenario, id);
			line("| " + contender.label() + " | " + throughputCell(scenario, id) + " | "
					+ ratio(scenario, id, FLOOR).map(ReportGenerator::times).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p50())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p99())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p999())).orElse("—") + " | " + cpuCell(scenario, id) + " | "
					+ commandsCell(scenario, id) + " | " + publishesCell(scenario, id) + " | "
					+ allocation.map((a) -> bytes(a.mean())).orElse("—") + " | "
					+ allocation.flatMap((a) -> floorAllocation.map((f) -> times(a.mean() / f.mean()))).orElse("—")
					+ " |");
		}
		line();
	}

	private void breakdown() {
		String scenario = Scenario.BREAKDOWN.id();
		if (this.results.runs(scenario, "floor") == 0) {
			return;
		}
		line("### Where distlock's uncontended time goes");
		line();
		line("`CostBreakdownBenchmark`, one fork per row, in the same run: from the floor to the full "
				+ "`LockTemplate`, one layer at a time, each row against the one above showing what a layer costs; "
				+ "then, each against `LockTemplate` as published, what each fencing capability of issue 33 adds to "
				+ "a lock+unlock. Throughput on this machine is noisy; CPU, commands, messages, bytes and allocation "
				+ "per lock+unlock are the steadier measures. Bytes are what Redis read and wrote (`INFO stats` "
				+ "`total_net_input_bytes` and `total_net_output_bytes`).");
		line();
		line("| layer | lock+unlock/s | CPU per lock+unlock: JVM / Redis | Redis commands per lock+unlock "
				+ "| pub/sub messages per lock+unlock | bytes to / from Redis per lock+unlock "
				+ "| allocated per lock+unlock |");
		line("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
		Map<String, String> layers = new LinkedHashMap<>();
		layers.put("floor", "raw Lettuce, `SET NX PX` + `EVALSHA` compare-and-delete (the floor)");
		layers.put("floor-spring-data", "the same two commands through `StringRedisTemplate`");
		layers.put("scripts-lettuce", "distlock's `acquire.lua` + `release.lua` on raw Lettuce, nobody subscribed: "
				+ "against the floor, the fencing token, the fair-queue check and the release message");
		layers.put("scripts-template", "the same scripts through `StringRedisTemplate.execute(RedisScript)`, as "
				+ "`RedisLockClient` ran them before issue 18: the per-call connection proxy");
		layers.put("client", "`RedisLockClient` directly, on a connection factory of its own, nobody subscribed: "
				+ "the lock scripts as the client runs them");
		layers.put("client-in-app", "`RedisLockClient` in the Boot application, with its release subscription: "
				+ "what the subscription costs when nobody waits");
		layers.put("template-no-renew", "`LockTemplate`, `withAutoRenew(false)`, wait 10 s");
		layers.put("template-wait-zero", "`LockTemplate`, auto-renew, wait 0 (tries once: no waiter registered)");
		layers.put("template-no-holder", "`LockTemplate`, `distlock.describe-holders=false`: owner tokens without "
				+ "the holder's description");
		layers.put("template", "`LockTemplate` as published: auto-renew, wait 10 s");
		layers.put("template-commit-guard",
				"+ commit guard: `LockTemplate.execute` (the lock bound to "
						+ "`LockContext`) around a transaction whose manager does nothing, with `LockCommitGuard` "
						+ "checking the lock before the commit");
		layers.put("template-redis-fence", "+ Redis fence: `LockTemplate` with one `RedisFencedWrites.set` "
				+ "under the lock, on the same Redis");
		layers.put("template-jdbc-fence",
				"+ JDBC fence, includes H2's work: `LockTemplate` with a "
						+ "`DataSourceTransactionManager` transaction on an in-memory H2 database running "
						+ "`JdbcFence.check` (two statements: `SELECT COUNT(*)`, `UPDATE`) and its commit");
		layers.forEach((variant,
				description) -> line("| " + description + " | " + throughputCell(scenario, variant) + " | "
						+ cpuCell(scenario, variant) + " | " + commandsCell(scenario, variant) + " | "
						+ publishesCell(scenario, variant) + " | " + bytesToRedisCell(scenario, variant) + " | "
						+ this.results.allocation(scenario, variant).map((a) -> bytes(a.mean())).orElse("—") + " |"));
		line();
	}

	private void distinctKeys() {
		String scenario = Scenario.DISTINCT_KEYS.id();
		line("## 16 threads, distinct keys");
		line();
		line("Sixteen threads share one instance of the contender (one application), each locking and unlocking "
				+ "a key of its own: how many uncontended locks per second one client sustains.");
		line();
		line("| contender | lock+unlock/s | × floor | p50 | p99 | p99.9 | CPU per lock+unlock: JVM / Redis "
				+ "| Redis commands per lock+unlock | pub/sub messages per lock+unlock |");
		line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
		for (Contender contender : Contender.in(scenario)) {
			String id = contender.id();
			Optional<Percentiles> latency = this.results.latencies(scenario, id);
			line("| " + contender.label() + " | " + throughputCell(scenario, id) + " | "
					+ ratio(scenario, id, FLOOR).map(ReportGenerator::times).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p50())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p99())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p999())).orElse("—") + " | " + cpuCell(scenario, id) + " | "
					+ commandsCell(scenario, id) + " | " + publishesCell(scenario, id) + " |");
		}
		line();
	}

	private void oneKey(String scenario, String redis) {
		if (!redis.isEmpty() && this.results.runs(scenario, FLOOR) == 0) {
			return;
		}
		String bestRedisson = best(scenario, REDISSON);
		line("## 16 threads, one key" + redis);
		line();
		line("Sixteen threads of one application all lock the same key, do about a microsecond of work under it "
				+ "and unlock: every lock+unlock is a handoff. Time to acquire runs from the call to the moment "
				+ "the body starts. Every holder checks that it is alone under the lock; an overlap fails the "
				+ "trial and is shown here as FAILED, never as a number.");
		line();
		line("| contender | handoffs/s | × floor | × " + label(bestRedisson)
				+ " | time to acquire p50 | p99 | p99.9 | CPU per handoff: JVM / Redis | Redis commands per handoff "
				+ "| pub/sub messages per handoff | mutual exclusion |");
		line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
		for (Contender contender : Contender.in(redis.isEmpty() ? scenario : BenchmarkMain.SECOND_REDIS_STEP)) {
			String id = contender.id();
			boolean overlapped = this.results.overlapped(scenario, id);
			Optional<Percentiles> latency = this.results.latencies(scenario, id);
			line("| " + contender.label() + " | " + (overlapped ? "FAILED" : throughputCell(scenario, id)) + " | "
					+ ratio(scenario, id, FLOOR).map(ReportGenerator::times).orElse("—") + " | "
					+ ratio(scenario, id, bestRedisson).map(ReportGenerator::times).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p50())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p99())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p999())).orElse("—") + " | " + cpuCell(scenario, id) + " | "
					+ commandsCell(scenario, id) + " | " + publishesCell(scenario, id) + " | "
					+ (overlapped ? "**OVERLAP: FAILED**" : (this.results.runs(scenario, id) > 0)
							? "no overlap in " + this.results.forks(scenario, id) + " fork(s)" : "—")
					+ " |");
		}
		line();
		if (!redis.isEmpty()) {
			return;
		}
		line("The floor has no waiting strategy: a busy lock is retried at once, so its number is a spin loop "
				+ "on one connection, not a design to copy. Spring Integration serializes the threads of one "
				+ "registry on a local `ReentrantLock` per key before they go to Redis.");
		line();
	}

	private void handoff() {
		line("## Handoff latency");
		line();
		line("Two instances of the contender (two applications, each with its own connections and release "
				+ "subscription) take turns on one key. The waiter calls the lock; the holder keeps it 3 ms more "
				+ "so that the waiter finds it busy and parks, then releases. Latency runs from the start of the "
				+ "release call to the moment the waiter's body starts: the release's round trip, the "
				+ "notification, and the waiter's acquire.");
		line();
		line("| contender | p50 | p99 | p99.9 | max | × floor (p50) | handoffs measured |");
		line("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
		Optional<Percentiles> floor = this.results.handoff(FLOOR);
		for (Contender contender : Contender.in("handoff")) {
			String id = contender.id();
			Optional<Percentiles> latency = this.results.handoff(id);
			if (this.results.handoffOverlapped(id)) {
				line("| " + contender.label() + " | **OVERLAP: FAILED** | | | | | |");
				continue;
			}
			line("| " + contender.label() + " | " + latency.map((p) -> micros(p.p50())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p99())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p999())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.max())).orElse("—") + " | "
					+ latency.flatMap((p) -> floor.map((f) -> times(p.p50() / f.p50()))).orElse("—") + " | "
					+ latency.map((p) -> String.format(Locale.ROOT, "%,d", p.count())).orElse("—") + " |");
		}
		line();
		line("The floor spins (`SET NX` again at once), so it sees the release within a round trip, at the "
				+ "cost of a core and of Redis commands while it waits.");
		line();
	}

	private void renewal() {
		line("## Renewal cost: 10,000 held locks");
		line();
		line("One JVM holds many locks with a 3 s lease while its watchdog renews each every 1 s (a third of "
				+ "the lease, the default ratio of all three). JVM CPU is the process CPU time of the renewing "
				+ "JVM over the window, in % of one core; Redis commands count every command Redis processed "
				+ "(`total_commands_processed`, which includes the commands scripts run), scripts the "
				+ "`EVAL`/`EVALSHA` calls (`INFO commandstats`); Redis CPU is its user+system time. The idle "
				+ "column is the same client before it took any lock.");
		line();
		line("| contender | locks | JVM CPU (% of a core) | Redis commands/s | scripts/s | Redis CPU | still held after | idle: JVM CPU, Redis commands/s |");
		line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
		for (String id : RENEWING) {
			Optional<JsonNode> measured = this.results.renewal(id);
			if (measured.isEmpty()) {
				line("| " + label(id) + " | — | — | — | — | — | — | — |");
				continue;
			}
			JsonNode node = measured.get();
			JsonNode held = node.path("held");
			JsonNode idle = node.path("idle");
			line("| " + label(id) + " | " + String.format(Locale.ROOT, "%,d", node.path("locks").asLong()) + " | "
					+ percent(held, "jvmCpuSeconds") + " | " + perSecond(held, "redisCommands") + " | "
					+ perSecond(held, "redisScriptCalls") + " | " + percent(held, "redisCpuSeconds") + " | "
					+ String.format(Locale.ROOT, "%,d", node.path("stillHeldAfter").asLong()) + " | "
					+ percent(idle, "jvmCpuSeconds") + ", " + perSecond(idle, "redisCommands") + " |");
		}
		line();
	}

	private void redlock() {
		String scenario = Scenario.REDLOCK.id();
		line("## Redlock: 3 and 5 nodes against a single node");
		line();
		if (this.results.runs(scenario, "nodes-1") == 0) {
			line("TODO: not measured in this run.");
			line();
			return;
		}
		line("Uncontended lock+unlock on 1 thread through `LockTemplate`, over `RedlockNodes` connections to 1, 3 "
				+ "or 5 independent `redis-server`s (200 ms node timeout, clock drift factor 0.01). One node is the "
				+ "plain single-node client; 3 and 5 are `RedlockClient`, which sends acquire and release to all "
				+ "nodes from the caller and raises a fencing counter only on a node that is behind (none in the "
				+ "steady state).");
		line();
		line("| nodes | lock+unlock/s | × 1 node | p50 | p99 | p99.9 |");
		line("| --- | ---: | ---: | ---: | ---: | ---: |");
		for (String nodes : List.of("1", "3", "5")) {
			String key = "nodes-" + nodes;
			Optional<Percentiles> latency = this.results.latencies(scenario, key);
			line("| " + nodes + " | " + throughputCell(scenario, key) + " | "
					+ ratio(scenario, key, "nodes-1").map(ReportGenerator::times).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p50())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p99())).orElse("—") + " | "
					+ latency.map((p) -> micros(p.p999())).orElse("—") + " |");
		}
		line();
	}

	private void methodology(JsonNode machine) {
		line("## How it is measured");
		line();
		line("- **One run, one Redis, interleaved.** `BenchmarkMain` starts one `redis-server` through the test "
				+ "harness (`io.distlock.test.RedisServer`, loopback, no persistence) and runs every contender "
				+ "against it; each round runs one JMH fork of every contender in turn, the second round in "
				+ "reverse order, with `FLUSHALL` before each. The uncontended and one-key scenarios then run "
				+ "again, the same way, on a Redis " + machine.path("secondRedisVersion").asText("7.0") + " server ("
				+ machine.path("secondRedisBinary").asText("org.signal:embedded-redis")
				+ "), started through the harness in a JVM of its own. Redlock runs last on five further servers.");
		line("- **JMH** " + machine.path("versions").path("JMH").asText("") + ", throughput mode. Uncontended: "
				+ machine.path("jmh.uncontended").asText("?") + "; distinct keys and one key: "
				+ machine.path("jmh.one-key").asText(machine.path("jmh.distinct-keys").asText("?")) + "; Redlock: "
				+ machine.path("jmh.redlock").asText("?")
				+ ". A score is the mean of all measured iterations of all forks, ± the half-width of its 99.9% "
				+ "confidence interval.");
		line("- **CPU per operation:** the process CPU time of the benchmark JVM (all threads: the client's I/O "
				+ "threads, the release subscription, the watchdog, GC and JIT) and the user+system CPU time of "
				+ "Redis (`INFO cpu`), summed over the measured iterations and divided by their operations. On "
				+ "a shared machine this cost moves far less than throughput does. Redis commands per operation "
				+ "come from `total_commands_processed` over the same iterations and count the commands that "
				+ "scripts run.");
		line("- **Latencies** are recorded around every operation into an HdrHistogram (3 significant digits) "
				+ "during the measured iterations only, and merged over the forks.");
		line("- **The same work for everyone:** lease 30 s, wait up to 10 s, a new random owner per "
				+ "acquisition. distlock as Spring Boot auto-configures it (one shared Lettuce connection, "
				+ "watchdog on, release notifications on); `@DistributedLocked(key = \"#key\", ttl = \"30s\", "
				+ "waitTime = \"10s\")` on a bean method of the same application. Redisson with its default "
				+ "configuration (`tryLock(10, 30, SECONDS)` for the lease variant, `tryLock(10, SECONDS)` for the "
				+ "watchdog). Spring Integration `RedisLockRegistry` on a Lettuce connection factory like Boot's, "
				+ "in its pub/sub mode (waiters woken by a release message) and, on distinct keys only, in its "
				+ "default spin mode (a busy lock tried again every 100 ms; a release publishes nothing). The "
				+ "autoRenew-off variants (`LockTemplate` with `withAutoRenew(false)`, "
				+ "`@DistributedLocked(autoRenew = false)`) run in the three scenarios on the main Redis and in "
				+ "the handoff, so that the annotation is compared with the template at each setting. The floor: "
				+ "one Lettuce connection, `SET key uuid NX PX 30000` and an `EVALSHA` compare-and-delete.");
		line("- **Handoff latency:** " + machine.path("handoff").asText("?") + ". **Renewal:** "
				+ machine.path("renewal").asText("?") + ".");
		line("- **Other ways to run it:** `java -jar lock-benchmarks/target/benchmarks.jar --quick` is a smoke run of "
				+ "a few minutes that writes only below `target/`; `--only=one-key,handoff` runs some steps "
				+ "(uncontended, distinct-keys, one-key, breakdown, handoff, renewal, redis-7.0, redlock); `--report-only` "
				+ "rewrites this page from the last results. Single benchmarks run through JMH's own main, for "
				+ "example with a profiler: `java -cp lock-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main "
				+ "CostBreakdown -prof gc` (each fork then starts its own `redis-server`).");
		line("- **Netty:** Redisson 3.52.0 is built against Netty 4.1; it runs here on the Netty that the Spring "
				+ "Boot BOM manages (" + machine.path("versions").path("Netty").asText("?")
				+ "), shared with Lettuce, as in a Boot application.");
		line();
	}

	private String chart() {
		JsonNode machine = this.results.machine();
		String jvm = machine.path("jvm").asText("?");
		SvgChart chart = new SvgChart("distlock vs the raw-Lettuce floor, Redisson and Spring Integration",
				machine.path("cores").asText("?") + " cores · JDK " + jvm.substring(jvm.lastIndexOf(' ') + 1)
						+ " · Redis " + machine.path("redisVersion").asText("?") + " · one run, "
						+ machine.path("started").asText("").replace('T', ' ').replace("Z", " UTC")
						+ " · ratios to the floor; higher is better unless noted");
		throughputPanel(chart.panel("Uncontended lock+unlock, 1 thread (ops/s)"), Scenario.UNCONTENDED.id());
		throughputPanel(chart.panel("16 threads, distinct keys (ops/s)"), Scenario.DISTINCT_KEYS.id());
		throughputPanel(chart.panel("16 threads, one key (handoffs/s)"), Scenario.ONE_KEY.id());
		SvgChart.Panel handoff = chart.panel("Handoff latency, median (µs, lower is better)");
		Optional<Percentiles> floor = this.results.handoff(FLOOR);
		for (Contender contender : Contender.values()) {
			this.results.handoff(contender.id())
				.ifPresent((p) -> handoff.bar(contender.label(), p.p50(),
						micros(p.p50()) + floor.map((f) -> " (" + times(p.p50() / f.p50()) + " floor)").orElse(""),
						color(contender.id())));
		}
		SvgChart.Panel renewal = chart.panel("Renewing 10,000 held locks: JVM CPU (% of a core, lower is better)");
		for (String id : RENEWING) {
			this.results.renewal(id).ifPresent((node) -> {
				double cpu = 100 * node.path("held").path("jvmCpuSeconds").asDouble()
						/ node.path("held").path("windowSeconds").asDouble();
				renewal.bar(label(id), cpu, String.format(Locale.ROOT, "%.1f%%, Redis %s commands/s", cpu,
						perSecond(node.path("held"), "redisCommands")), color(id));
			});
		}
		SvgChart.Panel redlock = chart.panel("distlock over 1, 3 and 5 Redis nodes (Redlock), 1 thread (ops/s)");
		Optional<Summary> single = this.results.throughput(Scenario.REDLOCK.id(), "nodes-1");
		for (String nodes : List.of("1", "3", "5")) {
			this.results.throughput(Scenario.REDLOCK.id(), "nodes-" + nodes)
				.ifPresent((s) -> redlock.bar(nodes + ((nodes.equals("1")) ? " node" : " nodes (Redlock)"), s.mean(),
						ops(s.mean())
								+ single.map((one) -> " (" + times(s.mean() / one.mean()) + " 1 node)").orElse(""),
						nodes.equals("1") ? "#1f77b4" : nodes.equals("3") ? "#4a9fd8" : "#8cc4ea"));
		}
		return chart.render();
	}

	private void throughputPanel(SvgChart.Panel panel, String scenario) {
		for (Contender contender : Contender.values()) {
			String id = contender.id();
			if (this.results.overlapped(scenario, id)) {
				panel.bar(contender.label(), 0, "FAILED: overlapping holders", "#000000");
				continue;
			}
			this.results.throughput(scenario, id)
				.ifPresent((s) -> panel.bar(contender.label(), s.mean(),
						ops(s.mean()) + ratio(scenario, id, FLOOR).map((r) -> " (" + times(r) + " floor)").orElse(""),
						color(id)));
		}
	}

	private String throughputCell(String scenario, String key) {
		if (this.results.runs(scenario, key) == 0) {
			return "—";
		}
		return this.results.throughput(scenario, key)
			.map((s) -> ops(s.mean()) + (Double.isNaN(s.error()) ? "" : " ± " + ops(s.error())))
			.orElse("FAILED");
	}

	private String cpuCell(String scenario, String key) {
		return this.results.cpu(scenario, key)
			.map((cpu) -> String.format(Locale.ROOT, "%.0f / %.0f µs", cpu.jvm(), cpu.redis()))
			.orElse("—");
	}

	private String commandsCell(String scenario, String key) {
		return this.results.cpu(scenario, key)
			.filter((cpu) -> cpu.commands() > 0)
			.map((cpu) -> String.format(Locale.ROOT, "%.1f", cpu.commands()))
			.orElse("—");
	}

	private String bytesToRedisCell(String scenario, String key) {
		return this.results.cpu(scenario, key)
			.filter((cpu) -> cpu.bytesToRedis().isPresent() && cpu.bytesFromRedis().isPresent())
			.map((cpu) -> String.format(Locale.ROOT, "%,.0f / %,.0f B", cpu.bytesToRedis().get(),
					cpu.bytesFromRedis().get()))
			.orElse("—");
	}

	private String publishesCell(String scenario, String key) {
		return this.results.cpu(scenario, key)
			.flatMap(ResultSet.CpuPerOperation::publishesPerOperation)
			.map((messages) -> String.format(Locale.ROOT, (messages == 0) ? "0" : "%.2f", messages))
			.orElse("—");
	}

	private Optional<Double> ratio(String scenario, String key, String baseline) {
		return this.results.ratio(scenario, key, baseline);
	}

	private String best(String scenario, List<String> candidates) {
		return this.results.fastest(scenario, candidates);
	}

	private static String label(String id) {
		return Contender.of(id).label();
	}

	private static String color(String id) {
		return switch (id) {
			case "lettuce-floor" -> "#9e9e9e";
			case "distlock-template" -> "#1f77b4";
			case "distlock-template-no-renew" -> "#3b8bc7";
			case "distlock-annotation" -> "#5aa6dc";
			case "distlock-annotation-no-renew" -> "#8cc4ea";
			case "redisson-lease" -> "#d62728";
			case "redisson-watchdog" -> "#ee8a8b";
			case "spring-integration-spin" -> "#7fc97f";
			default -> "#2ca02c";
		};
	}

	private static String ops(double value) {
		return String.format(Locale.ROOT, "%,.0f", value);
	}

	static String times(double ratio) {
		return String.format(Locale.ROOT, "%.2f×", ratio);
	}

	static String micros(double micros) {
		if (micros >= 10_000) {
			return String.format(Locale.ROOT, "%,.1f ms", micros / 1000);
		}
		return String.format(Locale.ROOT, (micros >= 100) ? "%,.0f µs" : "%.1f µs", micros);
	}

	static String bytes(double bytes) {
		return String.format(Locale.ROOT, "%,.0f B", bytes);
	}

	private static String percent(JsonNode window, String field) {
		double seconds = window.path("windowSeconds").asDouble();
		return (seconds > 0) ? String.format(Locale.ROOT, "%.1f%%", 100 * window.path(field).asDouble() / seconds)
				: "—";
	}

	private static String perSecond(JsonNode window, String field) {
		double seconds = window.path("windowSeconds").asDouble();
		return (seconds > 0) ? String.format(Locale.ROOT, "%,.0f", window.path(field).asDouble() / seconds) : "—";
	}

	private static String minutes(JsonNode seconds) {
		return seconds.isMissingNode() ? "?" : String.format(Locale.ROOT, "%.1f min", seconds.asDouble() / 60);
	}

	private void line(String text) {
		this.md.append(text).append('\n');
	}

	private void line() {
		this.md.append('\n');
	}

}
