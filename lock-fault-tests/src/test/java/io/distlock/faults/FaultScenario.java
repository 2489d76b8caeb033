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

package io.distlock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.distlock.faults.client.ClientSettings;
import io.distlock.faults.client.FaultClient;
import io.distlock.faults.client.StorageClient;
import io.distlock.faults.client.Workload;
import io.distlock.faults.history.CheckReport;
import io.distlock.faults.history.History;
import io.distlock.faults.history.HistoryChecker;
import io.distlock.faults.history.HistoryReader;
import io.distlock.faults.history.Violation;
import io.distlock.faults.proxy.TcpProxy;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.test.RedisServer;
import org.jspecify.annotations.Nullable;

/**
 * One fault scenario: a storage server (never faulted), the lock server(s) (one Redis,
 * Redlock nodes, a {@link RedisCluster} or a {@link RedisSentinelGroup}), optionally a
 * {@link TcpProxy} in front of Redis for each client, and several client JVMs taking
 * locks for a bounded time while a {@link FaultPlan} injects faults; then the history is
 * read back and checked, and one summary line printed.
 */
final class FaultScenario {

	private static final Duration CLIENT_START_TIMEOUT = Duration.ofSeconds(60);

	/**
	 * The middle of the name of a key's set of permits in Redis,
	 * {@code {tag}<US>permits<US>lock:key}, with the unit separator the store names its
	 * derived keys with.
	 */
	private static final String PERMITS_OF = (char) 0x1f + "permits" + (char) 0x1f;

	/**
	 * The middle of the name of a key's set of read holds, as {@link #PERMITS_OF}.
	 */
	private static final String READ_HOLDS_OF = (char) 0x1f + "read-holds" + (char) 0x1f;

	/**
	 * How long a client waits for replicas to acknowledge: the default of
	 * {@code distlock.replication.timeout}, which the clients keep.
	 */
	private static final Duration REPLICATION_TIMEOUT = Duration.ofMillis(100);

	/**
	 * Soak mode, off by default: {@code -Ddistlock.faults.soak-sections=N} repeats every
	 * scenario in fresh rounds (new servers and client JVMs, the next seed) until its
	 * rounds together entered at least N critical sections, or until
	 * {@code distlock.faults.soak-max-minutes} (15 by default) have passed, so that a
	 * slow scenario (long critical sections) does not hold up the rest. Every round is
	 * checked for violations; the scenario's own assertions look at the last one.
	 */
	static final int SOAK_SECTIONS = Integer.getInteger("distlock.faults.soak-sections", 0);

	private static final Duration SOAK_MAX = Duration
		.ofMinutes(Integer.getInteger("distlock.faults.soak-max-minutes", 15));

	private final String name;

	private final long seed;

	private int clients = 3;

	private int threads = 3;

	private int keys = 3;

	private Duration ttl = Duration.ofSeconds(1);

	private Duration waitTime = Duration.ofMillis(500);

	private Duration timeout = Duration.ofMillis(500);

	private Duration duration = Duration.ofSeconds(6);

	private Duration slack = Duration.ofMillis(500);

	private int workMin = 5;

	private int workMax = 40;

	private int thinkMax = 10;

	private Workload workload = Workload.EXCLUSIVE;

	private int permits = 1;

	private int redlockNodes;

	private boolean proxied;

	private boolean replicated;

	private Consumer<List<RedisServer>> preparation = (servers) -> {
	};

	private int clusterPrimaries;

	private int clusterReplicas;

	private boolean sentinel;

	private int minReplicas;

	private Set<Violation> notGuaranteed = EnumSet.noneOf(Violation.class);

	private FaultPlan plan = (context) -> {
	};

	private FaultScenario(String name, long seed) {
		this.name = name;
		this.seed = seed;
	}

	static FaultScenario named(String name, long seed) {
		return new FaultScenario(name, seed);
	}

	FaultScenario clients(int clients, int threads) {
		this.clients = clients;
		this.threads = threads;
		return this;
	}

	FaultScenario keys(int keys) {
		this.keys = keys;
		return this;
	}

	/**
	 * Make the workers take two keys at once half of the time ({@link Workload#MULTI}).
	 * @return this scenario
	 */
	FaultScenario multiKey() {
		this.workload = Workload.MULTI;
		this.permits = 1;
		return this;
	}

	/**
	 * Make the workers take one of a key's permits ({@link Workload#PERMITS}).
	 * @param permits how many holders each key may have at once
	 * @return this scenario
	 */
	FaultScenario permits(int permits) {
		this.workload = Workload.PERMITS;
		this.permits = permits;
		return this;
	}

	/**
	 * Make the workers take read holds and write locks ({@link Workload#READ_WRITE}).
	 * @return this scenario
	 */
	FaultScenario readWrite() {
		this.workload = Workload.READ_WRITE;
		this.permits = 1;
		return this;
	}

	FaultScenario ttl(Duration ttl) {
		this.ttl = ttl;
		return this;
	}

	FaultScenario waitTime(Duration waitTime) {
		this.waitTime = waitTime;
		return this;
	}

	FaultScenario timeout(Duration timeout) {
		this.timeout = timeout;
		return this;
	}

	FaultScenario duration(Duration duration) {
		this.duration = duration;
		return this;
	}

	FaultScenario work(int minMillis, int maxMillis) {
		this.workMin = minMillis;
		this.workMax = maxMillis;
		return this;
	}

	FaultScenario redlock(int nodes) {
		this.redlockNodes = nodes;
		return this;
	}

	/**
	 * Put the locks on a Redis Cluster of the given shape instead of a single Redis.
	 * @param primaries how many primaries
	 * @param replicasPerPrimary how many replicas each primary gets
	 * @return this scenario
	 */
	FaultScenario cluster(int primaries, int replicasPerPrimary) {
		this.clusterPrimaries = primaries;
		this.clusterReplicas = replicasPerPrimary;
		return this;
	}

	/**
	 * Put the locks on a primary with two replicas, found by the clients through three
	 * sentinels, instead of a single Redis.
	 * @return this scenario
	 */
	FaultScenario sentinel() {
		this.sentinel = true;
		return this;
	}

	/**
	 * Make acquisitions and renewals count only once the given number of replicas
	 * acknowledged them ({@code distlock.replication.min-replicas}).
	 * @param minReplicas how many replicas
	 * @return this scenario
	 */
	FaultScenario minReplicas(int minReplicas) {
		this.minReplicas = minReplicas;
		return this;
	}

	FaultScenario proxied() {
		this.proxied = true;
		return this;
	}

	/**
	 * Give the single lock Redis a replica (the second {@link ScenarioContext#lockServer
	 * lock server}), in sync before the clients start, and put a proxy in front of the
	 * primary for each client, so that a fault plan can promote the replica and turn the
	 * proxies to it ({@link TcpProxy#retarget}).
	 * @return this scenario
	 */
	FaultScenario replicated() {
		this.replicated = true;
		this.proxied = true;
		return this;
	}

	/**
	 * Prepare the lock servers once the clients are ready, right before they start
	 * locking, such as by writing a key's fencing counter.
	 * @param preparation what to do with the lock servers
	 * @return this scenario
	 */
	FaultScenario prepare(Consumer<List<RedisServer>> preparation) {
		this.preparation = preparation;
		return this;
	}

	FaultScenario notGuaranteed(Violation... violations) {
		this.notGuaranteed = EnumSet.noneOf(Violation.class);
		this.notGuaranteed.addAll(List.of(violations));
		return this;
	}

	FaultScenario faults(FaultPlan plan) {
		this.plan = plan;
		return this;
	}

	/**
	 * Return how much longer than its wait time an attempt may take: the attempt running
	 * at the deadline (one command timeout, plus the replication timeout when replicas
	 * must acknowledge, or for Redlock an acquire round, a fence raise and a release
	 * round of two node timeouts each), plus scheduling slack on a small, busy machine.
	 */
	Duration lateTolerance() {
		Duration call = (this.redlockNodes > 0) ? this.timeout.multipliedBy(6) : this.timeout;
		if (this.minReplicas > 0) {
			call = call.plus(REPLICATION_TIMEOUT);
		}
		return call.plus(this.slack);
	}

	/**
	 * Run the scenario: one round, or in soak mode as many as it takes to reach
	 * {@link #SOAK_SECTIONS} critical sections, with one {@code SOAK} line adding them
	 * up.
	 * @return the result of the last round
	 * @throws AssertionError in soak mode, at the first round with a violation
	 */
	ScenarioResult run() throws Exception {
		if (SOAK_SECTIONS <= 0) {
			return runRound(this.seed);
		}
		SoakTotals totals = new SoakTotals();
		long soakStart = System.nanoTime();
		ScenarioResult last;
		do {
			last = runRound(this.seed + totals.rounds);
			totals.add(last);
			if (last.violations() > 0) {
				report(List.of(totals.line(this.name)));
				throw new AssertionError(
						"Soak round " + totals.rounds + " of '" + this.name + "' found violations: " + last.summary());
			}
		}
		while (totals.sections < SOAK_SECTIONS && System.nanoTime() - soakStart < SOAK_MAX.toNanos());
		report(List.of(totals.line(this.name)));
		return last;
	}

	private ScenarioResult runRound(long seed) throws Exception {
		Path directory = directory();
		List<RedisServer> lockServers = new ArrayList<>();
		List<TcpProxy> proxies = new ArrayList<>();
		List<ClientProcess> processes = new ArrayList<>();
		RedisCluster cluster = null;
		RedisSentinelGroup group = null;
		try (RedisServer storageServer = RedisServer.start();
				StorageClient storage = StorageClient.connect(storageServer.port())) {
			if (this.clusterPrimaries > 0) {
				cluster = RedisCluster.start(this.clusterPrimaries, this.clusterReplicas);
			}
			else if (this.sentinel) {
				group = RedisSentinelGroup.start();
			}
			else {
				for (int i = 0; i < Math.max(1, this.redlockNodes); i++) {
					lockServers.add(RedisServer.start());
				}
				if (this.replicated) {
					lockServers.add(RedisServer.startReplicaOf(lockServers.get(0)));
					lockServers.get(0).awaitReplicasInSync(1);
				}
			}
			Topology topology = new Topology(lockServers, cluster, group);
			for (int i = 0; i < this.clients; i++) {
				ClientSettings settings = settings(i, seed, storageServer.port(), topology, proxies, directory);
				processes.add(ClientProcess.start(settings, directory.resolve(settings.id() + ".log")));
			}
			for (ClientProcess process : processes) {
				process.await(FaultClient.READY, CLIENT_START_TIMEOUT);
			}
			this.preparation.accept(lockServers);
			long start = System.nanoTime();
			processes.forEach(ClientProcess::go);
			ScenarioContext context = new ScenarioContext(this.name, seed, processes, lockServers, cluster, group,
					proxies, storage, this.keys, start);
			try {
				this.plan.inject(context);
			}
			finally {
				heal(processes, topology, proxies);
			}
			Duration done = this.duration.plus(this.waitTime).plus(Duration.ofSeconds(30));
			for (ClientProcess process : processes) {
				if (process.isAlive()) {
					process.await(FaultClient.DONE, done.minus(context.elapsed()));
				}
			}
			List<String> left = leftLockKeys(topology);
			for (ClientProcess process : processes) {
				if (process.isAlive() && !process.finish(Duration.ofSeconds(15))) {
					System.out.println("  [" + this.name + "] client " + process.id() + " did not exit in time");
				}
			}
			return result(context, storage, processes, left, directory);
		}
		finally {
			processes.forEach(ClientProcess::close);
			proxies.forEach(TcpProxy::close);
			lockServers.forEach(RedisServer::close);
			if (cluster != null) {
				cluster.close();
			}
			if (group != null) {
				group.close();
			}
		}
	}

	private ClientSettings settings(int index, long seed, int storagePort, Topology topology, List<TcpProxy> proxies,
			Path directory) {
		String id = "c" + index;
		List<RedisServer> lockServers = topology.servers();
		int redisPort = 0;
		List<String> nodes = List.of();
		List<String> clusterNodes = List.of();
		String sentinelMaster = "";
		List<String> sentinelNodes = List.of();
		RedisCluster cluster = topology.cluster();
		RedisSentinelGroup group = topology.group();
		if (cluster != null) {
			clusterNodes = cluster.nodeAddresses();
		}
		else if (group != null) {
			sentinelMaster = group.masterName();
			sentinelNodes = group.sentinelAddresses();
		}
		else if (this.redlockNodes > 0) {
			nodes = lockServers.stream().map(RedisServer::uri).toList();
		}
		else if (this.proxied) {
			TcpProxy proxy = TcpProxy.start("127.0.0.1", lockServers.get(0).port());
			proxies.add(proxy);
			redisPort = proxy.port();
		}
		else {
			redisPort = lockServers.get(0).port();
		}
		return new ClientSettings(id, seed, storagePort, redisPort, nodes, clusterNodes, sentinelMaster, sentinelNodes,
				this.minReplicas, this.timeout, this.threads, this.keys, this.ttl, this.waitTime, this.workMin,
				this.workMax, this.thinkMax, this.duration, directory.resolve(id + ".history.jsonl"), this.workload,
				this.permits);
	}

	/**
	 * Undo what the plan may have left: frozen clients, stalled or slowed proxies,
	 * servers that are down or frozen (cluster nodes rejoin, Sentinel-group servers come
	 * back as replicas).
	 */
	private void heal(List<ClientProcess> processes, Topology topology, List<TcpProxy> proxies) {
		for (ClientProcess process : processes) {
			if (process.isAlive()) {
				process.thaw();
			}
		}
		for (TcpProxy proxy : proxies) {
			proxy.delay(Duration.ZERO);
			proxy.resume();
		}
		topology.servers().forEach(RedisServer::ensureRunning);
		RedisCluster cluster = topology.cluster();
		if (cluster != null) {
			for (RedisServer node : cluster.nodes()) {
				if (!node.isRunning() || node.isPaused()) {
					cluster.rejoin(node);
				}
			}
			cluster.awaitHealthy();
		}
		RedisSentinelGroup group = topology.group();
		if (group != null) {
			group.replicas().forEach(RedisServer::ensureRunning);
		}
	}

	/**
	 * Return the lock keys still in Redis once every client is done, and again after the
	 * ttl: a key that was only left by a failed release or an acquisition whose reply was
	 * lost expires meanwhile; one that is still there is never released.
	 */
	private List<String> leftLockKeys(Topology topology) throws InterruptedException {
		List<String> left = lockKeys(topology);
		if (left.isEmpty()) {
			return left;
		}
		System.out.println("  [" + this.name + "] lock keys left when the clients were done: " + left
				+ "; checking again after the ttl");
		Thread.sleep(this.ttl.plusMillis(500).toMillis());
		return lockKeys(topology);
	}

	/**
	 * Return the lock keys on every server that holds locks: every single or Redlock
	 * server, every primary of a cluster (as it is now, after any failover), or the
	 * current primary of a Sentinel group.
	 */
	private static List<String> lockKeys(Topology topology) {
		List<RedisServer> servers = topology.servers();
		RedisCluster cluster = topology.cluster();
		RedisSentinelGroup group = topology.group();
		if (cluster != null) {
			servers = cluster.primaries();
		}
		else if (group != null) {
			servers = List.of(group.primary());
		}
		List<String> keys = new ArrayList<>();
		for (RedisServer server : servers) {
			// The lock keys, and the sets of permits and of read holds, which the store
			// names with a separator.
			for (String pattern : List.of("lock:*", "*" + PERMITS_OF + "lock:*", "*" + READ_HOLDS_OF + "lock:*")) {
				Object reply = server.command("KEYS", pattern);
				if (reply instanceof List<?> list) {
					list.forEach(
							(key) -> keys.add(server.port() + "/" + String.valueOf(key).replace((char) 0x1f, '|')));
				}
			}
		}
		return keys;
	}

	private ScenarioResult result(ScenarioContext context, StorageClient storage, List<ClientProcess> processes,
			List<String> left, Path directory) throws IOException {
		HistoryReader reader = new HistoryReader();
		for (ClientProcess process : processes) {
			reader.client(Files.exists(process.history())
					? Files.readAllLines(process.history(), StandardCharsets.UTF_8) : List.of());
		}
		List<String> storageLog = storage.log();
		Files.write(directory.resolve("storage.log"), storageLog, StandardCharsets.UTF_8);
		reader.storage(storageLog);
		context.pauses().forEach(reader::pause);
		reader.leftLockKeys(left);
		History history = reader.history();
		CheckReport report = new HistoryChecker(lateTolerance()).check(history);
		String summary = report.summary(this.name, context.faults(), this.notGuaranteed);
		String measured = context.measurements()
			.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "=" + entry.getValue())
			.collect(Collectors.joining(", "));
		List<String> lines = new ArrayList<>();
		lines.add(summary);
		if (!measured.isEmpty()) {
			lines.add("  " + this.name + " measured: " + measured);
		}
		if (reader.skippedLines() > 0) {
			lines.add("  " + this.name + ": " + reader.skippedLines() + " unreadable history line(s) skipped");
		}
		report.details().forEach((detail) -> lines.add("  " + this.name + " " + detail));
		report(lines);
		return new ScenarioResult(this.name, report, context.faults(), this.notGuaranteed, history, summary,
				context.measurements());
	}

	/**
	 * Print lines of a scenario's report and append them to
	 * {@code target/fault-runs/summary.txt}.
	 * @param lines the lines
	 */
	static void report(List<String> lines) {
		lines.forEach(System.out::println);
		try {
			Files.createDirectories(runs());
			Files.write(runs().resolve("summary.txt"), lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path runs() {
		return Path.of(System.getProperty("basedir", "."), "target", "fault-runs");
	}

	private Path directory() {
		Path directory = runs().resolve(this.name);
		try {
			if (Files.exists(directory)) {
				try (Stream<Path> files = Files.walk(directory)) {
					for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
						if (!file.equals(directory)) {
							Files.delete(file);
						}
					}
				}
			}
			Files.createDirectories(directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return directory;
	}

	/**
	 * What the rounds of a soak run add up to.
	 */
	private static final class SoakTotals {

		private int rounds;

		private long sections;

		private long faults;

		private long excusedOverlaps;

		private long toldAtReleaseOverlaps;

		private long staleRejected;

		private long unfencedLostUpdates;

		private long lostSections;

		private long attempts;

		private long errors;

		void add(ScenarioResult result) {
			CheckReport report = result.report();
			this.rounds++;
			this.sections += report.sections();
			this.faults += result.faults();
			this.excusedOverlaps += report.excusedOverlaps();
			this.toldAtReleaseOverlaps += report.toldAtReleaseOverlaps();
			this.staleRejected += report.staleRejected();
			this.unfencedLostUpdates += report.unfencedLostUpdates();
			this.lostSections += report.lostSections();
			this.attempts += report.attempts();
			this.errors += report.errors();
		}

		String line(String name) {
			return "SOAK " + name + ": rounds=" + this.rounds + " ops=" + this.sections + " faults=" + this.faults
					+ " (excused-overlaps=" + this.excusedOverlaps + ", told-at-release-overlaps="
					+ this.toldAtReleaseOverlaps + ", stale-rejected=" + this.staleRejected + ", unfenced-lost-updates="
					+ this.unfencedLostUpdates + ", lost-sections=" + this.lostSections + ", attempts=" + this.attempts
					+ ", errors=" + this.errors + ")";
		}

	}

	/**
	 * Where the locks of a round live: single or Redlock servers, or else a cluster or a
	 * Sentinel group.
	 */
	private record Topology(List<RedisServer> servers, @Nullable RedisCluster cluster,
			@Nullable RedisSentinelGroup group) {

	}

	/**
	 * Injects the faults of a scenario while its clients run.
	 */
	@FunctionalInterface
	interface FaultPlan {

		void inject(ScenarioContext context) throws Exception;

	}

}
