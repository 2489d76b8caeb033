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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.distlock.benchmarks.contenders.Contender;
import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.benchmarks.harness.HandoffLatency;
import io.distlock.benchmarks.harness.RedisInfo;
import io.distlock.benchmarks.harness.RenewalCost;
import io.distlock.benchmarks.report.ReportGenerator;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServers;

/**
 * Runs every scenario for every contender on one {@code redis-server} started through the
 * test harness, then writes {@code docs/benchmarks.md} and {@code docs/benchmarks.svg}
 * from the results.
 *
 * <p>
 * The contenders are interleaved: each round runs one JMH fork of every contender in turn
 * (the second round in reverse order), so that a slow spell of the shared machine does
 * not fall on one contender only; a scenario's result for a contender combines the
 * measured iterations of all its forks. Handoff latency and renewal cost run in JVMs of
 * their own. The main server is the embedded Redis 6.2 (unless
 * {@code DISTLOCK_REDIS_VERSION} or {@code DISTLOCK_REDIS_SERVER} says otherwise); the
 * uncontended and one-key scenarios then run again on the embedded Redis 7.0. Redlock
 * runs last, on five further servers.
 *
 * <p>
 * Options: {@code --quick} (a smoke run of a few seconds per contender, written to the
 * results directory instead of {@code docs/}), {@code --only=uncontended,handoff,...},
 * {@code --rounds=N}, {@code --results=DIR}, {@code --docs=DIR}, {@code --report-only}
 * (regenerate the report from existing results). The hand-written analysis that the
 * report includes is always read from the repository's
 * {@code docs/benchmarks-analysis.md}.
 */
public final class BenchmarkMain {

	/**
	 * The command that reproduces the published results, from the repository root: about
	 * half an hour on 2 cores.
	 */
	public static final String COMMAND = "./mvnw -B -ntp -Pbenchmarks -pl lock-benchmarks -am package -DskipTests"
			+ " && java -jar lock-benchmarks/target/benchmarks.jar";

	/**
	 * The embedded Redis version of the main server, unless the harness is told
	 * otherwise.
	 */
	static final String MAIN_REDIS_VERSION = "6.2";

	/**
	 * The embedded Redis version that the uncontended and one-key scenarios run on again.
	 */
	static final String SECOND_REDIS_VERSION = "7.0";

	/**
	 * The step that runs the uncontended and one-key scenarios on
	 * {@link #SECOND_REDIS_VERSION}.
	 */
	public static final String SECOND_REDIS_STEP = "redis-" + SECOND_REDIS_VERSION;

	private static final List<String> ALL_STEPS = List.of("uncontended", "distinct-keys", "one-key", "breakdown",
			"handoff", "renewal", SECOND_REDIS_STEP, "redlock");

	private static final List<String> BREAKDOWN = List.of("floor", "floor-spring-data", "scripts-lettuce",
			"scripts-template", "client", "client-in-app", "template-no-renew", "template-wait-zero",
			"template-no-holder", "template", "template-commit-guard", "template-redis-fence", "template-jdbc-fence");

	private static final String REDIS_VERSION_PROPERTY = "distlock.redis.version";

	private static final List<String> RENEWING = List.of("distlock-template", "redisson-watchdog",
			"spring-integration");

	private final Settings settings;

	private final Path results;

	private final Map<String, Object> runInfo = new LinkedHashMap<>();

	private BenchmarkMain(Settings settings) {
		this.settings = settings;
		this.results = settings.results;
	}

	/**
	 * Run the benchmarks and write the report.
	 * @param args the options, see the class description
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		Settings settings = Settings.parse(args);
		if (!settings.reportOnly) {
			if (System.getProperty(REDIS_VERSION_PROPERTY) == null && System.getenv("DISTLOCK_REDIS_VERSION") == null) {
				// The harness's default is 7.0; the main tables stay on 6.2, as published
				// before, and 7.0 gets tables of its own.
				System.setProperty(REDIS_VERSION_PROPERTY, MAIN_REDIS_VERSION);
			}
			deleteRecursively(settings.results);
			Files.createDirectories(settings.results);
			new BenchmarkMain(settings).run();
		}
		ReportGenerator.generate(settings.results, settings.docs, settings.analysis);
		System.out.println("Report written to " + settings.docs.resolve("benchmarks.md").toAbsolutePath());
		System.exit(0);
	}

	private void run() throws Exception {
		Instant started = Instant.now();
		describeMachine();
		this.runInfo.put("quick", this.settings.quick);
		this.runInfo.put("rounds", this.settings.rounds);
		this.runInfo.put("steps", this.settings.steps);
		try (RedisServer redis = RedisServer.start()) {
			RedisAddress address = new RedisAddress(redis.host(), redis.port());
			RedisInfo server = RedisInfo.read(address, "server");
			this.runInfo.put("redisVersion", server.text("redis_version"));
			this.runInfo.put("redisBinary", redisBinary(server.text("redis_version")));
			log("Redis " + server.text("redis_version") + " at " + address);
			for (int round = 1; round <= this.settings.rounds; round++) {
				for (Scenario scenario : List.of(Scenario.UNCONTENDED, Scenario.DISTINCT_KEYS, Scenario.ONE_KEY)) {
					if (this.settings.steps.contains(scenario.id())) {
						for (String contender : inRoundOrder(contenders(scenario.id()), round)) {
							redis.flushAll();
							runJmh(scenario, scenario.id(), "contender", contender, round, address, List.of());
						}
					}
				}
			}
			if (this.settings.steps.contains("breakdown")) {
				// One fork each: allocation and CPU per operation are stable enough.
				for (String variant : BREAKDOWN) {
					redis.flushAll();
					runJmh(Scenario.BREAKDOWN, Scenario.BREAKDOWN.id(), "variant", variant, 1, address, List.of());
				}
			}
			if (this.settings.steps.contains("handoff")) {
				for (int round = 1; round <= this.settings.rounds; round++) {
					for (String contender : inRoundOrder(contenders("handoff"), round)) {
						redis.flushAll();
						runHandoff(contender, round, address);
					}
				}
			}
			if (this.settings.steps.contains("renewal")) {
				for (String contender : RENEWING) {
					redis.flushAll();
					runRenewal(contender, address);
				}
			}
		}
		if (this.settings.steps.contains(SECOND_REDIS_STEP)) {
			runOnSecondRedis();
		}
		if (this.settings.steps.contains("redlock")) {
			try (RedisServers nodes = RedisServers.start(5)) {
				List<RedisAddress> addresses = nodes.list()
					.stream()
					.map((node) -> new RedisAddress(node.host(), node.port()))
					.toList();
				String property = "-D" + BenchmarkRedis.REDLOCK_PROPERTY + "="
						+ String.join(",", addresses.stream().map(RedisAddress::toString).toList());
				for (int round = 1; round <= this.settings.rounds; round++) {
					for (String count : inRoundOrder(List.of("1", "3", "5"), round)) {
						nodes.list().forEach(RedisServer::flushAll);
						runJmh(Scenario.REDLOCK, Scenario.REDLOCK.id(), "nodes", count, round, addresses.get(0),
								List.of(property));
					}
				}
			}
		}
		this.runInfo.put("started", started.truncatedTo(ChronoUnit.SECONDS).toString());
		this.runInfo.put("durationSeconds", Duration.between(started, Instant.now()).toSeconds());
		BenchmarkFiles.writeString(this.results.resolve("machine.json"),
				new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(this.runInfo));
	}

	/**
	 * Run the uncontended and one-key scenarios for every contender once more, on a
	 * server of {@link #SECOND_REDIS_VERSION}, filing their results under
	 * {@link #secondRedisResultId}.
	 */
	private void runOnSecondRedis() throws Exception {
		try (ForkedRedis redis = ForkedRedis.start(SECOND_REDIS_VERSION)) {
			RedisAddress address = redis.address();
			RedisInfo server = RedisInfo.read(address, "server");
			this.runInfo.put("secondRedisVersion", server.text("redis_version"));
			this.runInfo.put("secondRedisBinary", redisBinary(server.text("redis_version")));
			log("Redis " + server.text("redis_version") + " at " + address);
			for (int round = 1; round <= this.settings.rounds; round++) {
				for (Scenario scenario : List.of(Scenario.UNCONTENDED, Scenario.ONE_KEY)) {
					for (String contender : inRoundOrder(contenders(SECOND_REDIS_STEP), round)) {
						redis.flushAll();
						String resultId = secondRedisResultId(scenario);
						runJmh(scenario, resultId, "contender", contender, round, address,
								List.of("-D" + BenchmarkFiles.RESULT_ID_PROPERTY + "=" + resultId));
					}
				}
			}
		}
	}

	/**
	 * Return the id under which the results of a scenario run on
	 * {@link #SECOND_REDIS_VERSION} are filed.
	 * @param scenario the scenario
	 * @return the result id, such as {@code uncontended-redis-7.0}
	 */
	public static String secondRedisResultId(Scenario scenario) {
		return scenario.id() + "-" + SECOND_REDIS_STEP;
	}

	private void runJmh(Scenario scenario, String resultId, String parameter, String value, int round,
			RedisAddress address, List<String> extraJvmArgs) throws RunnerException {
		Timing timing = timing(scenario);
		log("JMH " + resultId + " " + parameter + "=" + value + ", round " + round);
		List<String> jvmArgs = new ArrayList<>(jvmArgs(address));
		jvmArgs.addAll(extraJvmArgs);
		ChainedOptionsBuilder options = new OptionsBuilder().include(scenario.include())
			.param(parameter, value)
			.forks(1)
			.warmupIterations(timing.warmups)
			.warmupTime(TimeValue.seconds(timing.seconds))
			.measurementIterations(timing.measurements)
			.measurementTime(TimeValue.seconds(timing.seconds))
			.timeout(TimeValue.seconds(60))
			.jvmArgs(jvmArgs.toArray(new String[0]))
			.shouldFailOnError(false)
			.resultFormat(ResultFormatType.JSON)
			.result(BenchmarkFiles.jmh(this.results, resultId)
				.resolve((parameter.equals("nodes") ? "nodes-" : "") + value + "-r" + round + ".json")
				.toString());
		if (scenario == Scenario.UNCONTENDED || scenario == Scenario.BREAKDOWN) {
			// Allocation per lock+unlock, of all threads of the JVM (the I/O threads
			// too).
			options.addProfiler(GCProfiler.class);
		}
		try {
			Files.createDirectories(BenchmarkFiles.jmh(this.results, resultId));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.runInfo.putIfAbsent("jmh." + scenario.id(),
				timing.describe((scenario == Scenario.BREAKDOWN) ? 1 : this.settings.rounds));
		new Runner(options.build()).run();
	}

	private void runHandoff(String contender, int round, RedisAddress address) throws Exception {
		int warmup = this.settings.quick ? 50 : 300;
		int rounds = this.settings.quick ? 200 : 1000;
		this.runInfo.putIfAbsent("handoff", warmup + " warm-up and " + rounds + " measured handoffs per round, "
				+ this.settings.rounds + " round(s), holder keeps the lock 3 ms after the waiter called");
		log("Handoff latency " + contender + ", round " + round);
		runJava(HandoffLatency.class, address, Duration.ofMinutes(5), contender, address.toString(),
				String.valueOf(warmup), String.valueOf(rounds),
				this.results.resolve("handoff").resolve(contender + "-r" + round + ".json").toString());
	}

	private void runRenewal(String contender, RedisAddress address) throws Exception {
		int locks = this.settings.quick ? 1000 : 10_000;
		int idle = this.settings.quick ? 3 : 5;
		int warm = this.settings.quick ? 4 : 6;
		int measured = this.settings.quick ? 5 : 15;
		this.runInfo.putIfAbsent("renewal", locks + " locks, 3000 ms lease (renewed every 1 s), " + idle
				+ " s idle window, " + warm + " s warm-up, " + measured + " s measured");
		log("Renewal cost " + contender);
		runJava(RenewalCost.class, address, Duration.ofMinutes(5), contender, address.toString(), String.valueOf(locks),
				"3000", String.valueOf(idle), String.valueOf(warm), String.valueOf(measured),
				this.results.resolve("renewal").resolve(contender + ".json").toString());
	}

	private void runJava(Class<?> mainClass, RedisAddress address, Duration timeout, String... args) throws Exception {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvmArgs(address));
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(mainClass.getName());
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).inheritIO().start();
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			process.waitFor(10, TimeUnit.SECONDS);
			log(mainClass.getSimpleName() + " " + args[0] + " did not finish within " + timeout + "; stopped");
		}
		else if (process.exitValue() != 0) {
			log(mainClass.getSimpleName() + " " + args[0] + " failed with exit code " + process.exitValue());
		}
	}

	private List<String> jvmArgs(RedisAddress address) {
		return List.of("-Xms1g", "-Xmx1g", "-D" + BenchmarkRedis.REDIS_PROPERTY + "=" + address,
				"-D" + BenchmarkFiles.RESULTS_PROPERTY + "=" + this.results,
				"-Dorg.springframework.boot.logging.LoggingSystem=none");
	}

	private Timing timing(Scenario scenario) {
		if (this.settings.quick) {
			return new Timing(1, 2, 1);
		}
		return switch (scenario) {
			// Sixteen threads on two cores take longer to warm up than one.
			case UNCONTENDED -> new Timing(5, 5, 2);
			case DISTINCT_KEYS, ONE_KEY, BREAKDOWN -> new Timing(4, 4, 2);
			case REDLOCK -> new Timing(3, 3, 2);
		};
	}

	private static List<String> contenders(String step) {
		return Contender.in(step).stream().map(Contender::id).toList();
	}

	private static List<String> inRoundOrder(List<String> values, int round) {
		List<String> ordered = new ArrayList<>(values);
		if (round % 2 == 0) {
			Collections.reverse(ordered);
		}
		return ordered;
	}

	private void describeMachine() {
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		this.runInfo.put("cores", Runtime.getRuntime().availableProcessors());
		this.runInfo.put("cpu", cpuModel());
		this.runInfo.put("memoryGiB", Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024)));
		this.runInfo.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
				+ System.getProperty("os.arch"));
		this.runInfo.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		this.runInfo.put("jvmArgs", "-Xms1g -Xmx1g, G1 (default)");
		Properties files = versionsFile();
		Map<String, String> versions = new LinkedHashMap<>();
		versions.put("distlock", files.getProperty("distlock", "unknown"));
		versions.put("Spring Boot", files.getProperty("spring-boot", "unknown"));
		versions.put("Spring Data Redis", version(files, "spring-data-redis"));
		versions.put("Lettuce", version(files, "lettuce"));
		versions.put("Redisson", version(files, "redisson"));
		versions.put("Spring Integration", version(files, "spring-integration"));
		versions.put("Netty", version(files, "netty"));
		versions.put("JMH", version(files, "jmh"));
		versions.put("HdrHistogram", version(files, "hdrhistogram"));
		this.runInfo.put("versions", versions);
		this.runInfo.put("commit", git("describe", "--always", "--dirty", "--abbrev=12"));
		this.runInfo.put("command", COMMAND);
	}

	private static String redisBinary(String version) {
		String binary = System.getProperty("distlock.redis.server", System.getenv("DISTLOCK_REDIS_SERVER"));
		if (binary != null && !binary.isBlank()) {
			return binary;
		}
		return "the redis-server shipped in "
				+ (version.startsWith("6.") ? "com.github.codemonstur:embedded-redis" : "org.signal:embedded-redis");
	}

	private static String cpuModel() {
		try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
			return lines.filter((line) -> line.startsWith("model name"))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("unknown");
		}
		catch (IOException | UncheckedIOException ex) {
			return "unknown";
		}
	}

	private static Properties versionsFile() {
		Properties properties = new Properties();
		try (InputStream input = BenchmarkMain.class.getResourceAsStream("versions.properties")) {
			if (input != null) {
				properties.load(input);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return properties;
	}

	/**
	 * The version of a dependency, from the name of the folder its jar was built from.
	 */
	private static String version(Properties files, String name) {
		String file = files.getProperty(name);
		if (file == null || file.startsWith("${")) {
			return "unknown";
		}
		Path parent = Path.of(file).getParent();
		return (parent != null) ? parent.getFileName().toString() : "unknown";
	}

	private static String git(String... args) {
		List<String> command = new ArrayList<>();
		command.add("git");
		command.addAll(List.of(args));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			return (process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0) ? output : "unknown";
		}
		catch (IOException ex) {
			return "unknown";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "unknown";
		}
	}

	private static void deleteRecursively(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

	private static void log(String message) {
		System.out.println("### " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " " + message);
	}

	/**
	 * How long JMH warms up and measures one fork.
	 */
	private record Timing(int warmups, int measurements, int seconds) {

		String describe(int forks) {
			return this.warmups + " × " + this.seconds + " s warm-up, " + this.measurements + " × " + this.seconds
					+ " s measured, " + forks + " fork(s) per contender";
		}

	}

	/**
	 * The command-line options.
	 */
	private static final class Settings {

		boolean quick;

		boolean reportOnly;

		int rounds = 2;

		Set<String> steps = new LinkedHashSet<>(ALL_STEPS);

		Path results = Path.of(Files.isDirectory(Path.of("lock-benchmarks")) ? "lock-benchmarks/target" : "target")
			.resolve("benchmark-results")
			.toAbsolutePath();

		Path docs = Path.of(Files.isDirectory(Path.of("lock-benchmarks")) ? "docs" : "../docs").toAbsolutePath();

		// Hand-written, in the repository: a quick run includes it as the full run does.
		final Path analysis = this.docs.resolve(ReportGenerator.ANALYSIS_FILE);

		private boolean docsGiven;

		static Settings parse(String[] args) {
			Settings settings = new Settings();
			for (String arg : args) {
				if (arg.equals("--quick")) {
					settings.quick = true;
					settings.rounds = 1;
				}
				else if (arg.equals("--report-only")) {
					settings.reportOnly = true;
				}
				else if (arg.startsWith("--rounds=")) {
					settings.rounds = Integer.parseInt(arg.substring("--rounds=".length()));
				}
				else if (arg.startsWith("--only=")) {
					settings.steps = new LinkedHashSet<>(List.of(arg.substring("--only=".length()).split(",")));
					settings.steps.forEach((step) -> {
						if (!ALL_STEPS.contains(step)) {
							throw new IllegalArgumentException("Unknown step '" + step + "'; known: " + ALL_STEPS);
						}
					});
				}
				else if (arg.startsWith("--results=")) {
					settings.results = Path.of(arg.substring("--results=".length())).toAbsolutePath();
				}
				else if (arg.startsWith("--docs=")) {
					settings.docs = Path.of(arg.substring("--docs=".length())).toAbsolutePath();
					settings.docsGiven = true;
				}
				else {
					throw new IllegalArgumentException("Unknown option '" + arg + "'; see BenchmarkMain's javadoc");
				}
			}
			if (settings.quick && !settings.docsGiven) {
				// A smoke run never overwrites the published results.
				settings.docs = settings.results;
			}
			return settings;
		}

	}

}
