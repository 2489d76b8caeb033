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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.distlock.faults.client.StorageClient;
import io.distlock.faults.history.History.Window;
import io.distlock.faults.proxy.TcpProxy;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import org.jspecify.annotations.Nullable;

/**
 * What a fault plan works with while the clients run: the clients, the lock servers (or
 * the Redis Cluster, or the Sentinel group), the proxies, the storage, a seeded random
 * source and the scenario clock. Every fault injected through
 * {@link #fault(String, String)} is counted and marked in the storage's global order.
 */
final class ScenarioContext {

	private static final Duration HOLDER_POLL = Duration.ofMillis(3);

	private final String scenario;

	private final Random random;

	private final List<ClientProcess> clients;

	private final List<RedisServer> lockServers;

	private final @Nullable RedisCluster cluster;

	private final @Nullable RedisSentinelGroup sentinelGroup;

	private final List<TcpProxy> proxies;

	private final StorageClient storage;

	private final int keys;

	private final long startNanos;

	private final List<Window> pauses = new ArrayList<>();

	private final Map<String, Object> measurements = new LinkedHashMap<>();

	private int faults;

	ScenarioContext(String scenario, long seed, List<ClientProcess> clients, List<RedisServer> lockServers,
			@Nullable RedisCluster cluster, @Nullable RedisSentinelGroup sentinelGroup, List<TcpProxy> proxies,
			StorageClient storage, int keys, long startNanos) {
		this.scenario = scenario;
		this.random = new Random(seed);
		this.clients = clients;
		this.lockServers = lockServers;
		this.cluster = cluster;
		this.sentinelGroup = sentinelGroup;
		this.proxies = proxies;
		this.storage = storage;
		this.keys = keys;
		this.startNanos = startNanos;
	}

	Random random() {
		return this.random;
	}

	ClientProcess client(int index) {
		return this.clients.get(index);
	}

	RedisServer lockServer(int index) {
		return this.lockServers.get(index);
	}

	List<RedisServer> lockServers() {
		return this.lockServers;
	}

	/**
	 * Return the Redis Cluster the locks live on.
	 * @return the cluster
	 * @throws IllegalStateException if the scenario does not run on a cluster
	 */
	RedisCluster cluster() {
		if (this.cluster == null) {
			throw new IllegalStateException("Scenario '" + this.scenario + "' does not run on a Redis Cluster");
		}
		return this.cluster;
	}

	/**
	 * Return the Sentinel group the locks live on.
	 * @return the group
	 * @throws IllegalStateException if the scenario does not run on a Sentinel group
	 */
	RedisSentinelGroup sentinelGroup() {
		if (this.sentinelGroup == null) {
			throw new IllegalStateException("Scenario '" + this.scenario + "' does not run on a Sentinel group");
		}
		return this.sentinelGroup;
	}

	/**
	 * Return the Redis key of a lock as the clients name it: the default key prefix
	 * {@code lock:} followed by the key the workers pick, such as {@code k0}.
	 * @param key the workers' key
	 * @return the lock key
	 */
	static String lockKey(String key) {
		return "lock:" + key;
	}

	TcpProxy proxy(int client) {
		return this.proxies.get(client);
	}

	List<TcpProxy> proxies() {
		return this.proxies;
	}

	StorageClient storage() {
		return this.storage;
	}

	/**
	 * Count a fault and mark it in the storage's order.
	 * @param kind what is done, such as {@code restart}
	 * @param subject to what, such as {@code redis-0}
	 */
	void fault(String kind, String subject) {
		this.faults++;
		this.storage.mark(kind, subject);
		System.out.printf("  [%s +%dms] %s %s%n", this.scenario, elapsed().toMillis(), kind, subject);
	}

	/**
	 * Mark an event that is not a fault of its own in the storage's order, such as the
	 * end of a failover, without counting it.
	 * @param kind what happened, such as {@code promoted}
	 * @param subject to what, such as {@code redis-6380}
	 */
	void note(String kind, String subject) {
		this.storage.mark(kind, subject);
		System.out.printf("  [%s +%dms] %s %s%n", this.scenario, elapsed().toMillis(), kind, subject);
	}

	int faults() {
		return this.faults;
	}

	/**
	 * Record a figure measured by the plan, printed after the summary line.
	 * @param name the figure's name
	 * @param value its value
	 */
	void measure(String name, Object value) {
		this.measurements.put(name, value);
	}

	Map<String, Object> measurements() {
		return this.measurements;
	}

	List<Window> pauses() {
		return this.pauses;
	}

	Duration elapsed() {
		return Duration.ofNanos(System.nanoTime() - this.startNanos);
	}

	/**
	 * Sleep until the given time after the workers started.
	 * @param sinceStart the time since the start
	 */
	void sleepUntil(Duration sinceStart) {
		sleep(sinceStart.minus(elapsed()));
	}

	void sleep(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			return;
		}
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Measure one round trip to the lock Redis through a proxy, as the clients see it.
	 * @param proxy the proxy
	 * @return the time a {@code PING} took
	 */
	Duration roundTrip(TcpProxy proxy) {
		try (RespConnection connection = RespConnection.open("127.0.0.1", proxy.port(), null, Duration.ofSeconds(10))) {
			long start = System.nanoTime();
			connection.command("PING");
			return Duration.ofNanos(System.nanoTime() - start);
		}
	}

	/**
	 * Wait until the client is inside a critical section, as the storage sees it.
	 * @param client the client index
	 * @param timeout how long to wait
	 * @return the key it holds, or {@code null} if it held none in time
	 */
	@Nullable String awaitHolder(int client, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() - deadline < 0) {
			String key = heldKey(client);
			if (key != null) {
				return key;
			}
			sleep(HOLDER_POLL);
		}
		return null;
	}

	/**
	 * Return the critical sections the client is in, as the storage sees them.
	 * @param client the client index
	 * @return the sections, as {@code key/holder}
	 */
	List<String> heldKeys(int client) {
		String prefix = this.clients.get(client).id() + "-";
		List<String> held = new ArrayList<>();
		for (int k = 0; k < this.keys; k++) {
			String key = "k" + k;
			this.storage.inSection(key)
				.keySet()
				.stream()
				.filter((holder) -> holder.startsWith(prefix))
				.forEach((holder) -> held.add(key + "/" + holder));
		}
		return held;
	}

	private @Nullable String heldKey(int client) {
		List<String> held = heldKeys(client);
		return held.isEmpty() ? null : held.get(0).substring(0, held.get(0).indexOf('/'));
	}

	/**
	 * Freeze a client JVM while it is inside a critical section, for the given time.
	 * @param client the client index
	 * @param pause how long to freeze it
	 * @return the sections it was in while frozen, as {@code key/holder} (empty if it
	 * could not be caught in one)
	 */
	List<String> freezeHolder(int client, Duration pause) {
		ClientProcess process = this.clients.get(client);
		for (int tries = 0; tries < 50; tries++) {
			if (awaitHolder(client, Duration.ofSeconds(2)) == null) {
				continue;
			}
			long start = System.nanoTime();
			process.freeze();
			List<String> held = heldKeys(client);
			if (held.isEmpty()) {
				// It left its section between the look and the signal: try again.
				process.thaw();
				this.pauses.add(new Window(process.id(), start, System.nanoTime()));
				continue;
			}
			fault("freeze", process.id());
			sleep(pause);
			// Marked while still frozen, so that all the client does after the thaw comes
			// after the mark in the storage's order.
			this.storage.mark("thaw", process.id());
			process.thaw();
			this.pauses.add(new Window(process.id(), start, System.nanoTime()));
			return held;
		}
		return List.of();
	}

	/**
	 * Stall a client's connections to Redis (its proxy holds every byte back) while it is
	 * inside a critical section, for the given time: the holder keeps working, but its
	 * renewals cannot get through.
	 * @param client the client index
	 * @param stall how long to stall it
	 * @return the sections it was in when the stall began, as {@code key/holder} (empty
	 * if it could not be caught in one)
	 */
	List<String> stallHolder(int client, Duration stall) {
		TcpProxy proxy = this.proxies.get(client);
		for (int tries = 0; tries < 50; tries++) {
			if (awaitHolder(client, Duration.ofSeconds(2)) == null) {
				continue;
			}
			proxy.stall();
			List<String> held = heldKeys(client);
			if (held.isEmpty()) {
				// It left its section between the look and the stall: try again.
				proxy.resume();
				continue;
			}
			fault("stall-" + stall.toMillis() + "ms", this.clients.get(client).id());
			sleep(stall);
			proxy.resume();
			return held;
		}
		return List.of();
	}

	/**
	 * Kill a client JVM with SIGKILL while it is inside a critical section.
	 * @param client the client index
	 * @return the sections it was in when killed, as {@code key/holder} (empty if it
	 * could not be caught in one)
	 */
	List<String> killHolder(int client) {
		ClientProcess process = this.clients.get(client);
		awaitHolder(client, Duration.ofSeconds(5));
		process.kill();
		List<String> held = heldKeys(client);
		// Recorded right after the process is gone: its open sections end here.
		fault("kill", process.id());
		return held;
	}

}
