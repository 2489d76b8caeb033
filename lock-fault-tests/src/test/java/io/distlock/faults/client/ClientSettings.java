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

package io.distlock.faults.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of a client JVM, passed as {@code name=value} arguments.
 *
 * @param id the client id, such as {@code c0}
 * @param seed the seed of the workers' random choices
 * @param storagePort the port of the fenced storage
 * @param redisPort the port of the lock Redis (or of the proxy in front of it), when not
 * in Redlock, Cluster or Sentinel mode
 * @param redlockNodes the Redlock node URLs, empty for single-node mode
 * @param clusterNodes the {@code host:port} addresses of the Redis Cluster nodes, empty
 * unless the locks live on a cluster
 * @param sentinelMaster the name the sentinels monitor the lock Redis under, empty unless
 * it is found through Sentinel
 * @param sentinelNodes the {@code host:port} addresses of the sentinels
 * @param minReplicas how many replicas must acknowledge an acquisition or renewal
 * ({@code distlock.replication.min-replicas}), 0 for none
 * @param timeout the command timeout of the lock Redis (or, for Redlock, of each node)
 * @param threads how many worker threads
 * @param keys how many lock keys the workers pick from
 * @param ttl the lease time of every lock
 * @param waitTime the wait time of every acquisition
 * @param workMinMillis the shortest work inside a critical section
 * @param workMaxMillis the longest work inside a critical section
 * @param thinkMaxMillis the longest pause between two acquisitions of a worker
 * @param duration how long the workers run
 * @param history the history file to write
 * @param workload what kind of locks the workers take
 * @param permits how many holders a key may have at once in the {@link Workload#PERMITS}
 * workload
 */
public record ClientSettings(String id, long seed, int storagePort, int redisPort, List<String> redlockNodes,
		List<String> clusterNodes, String sentinelMaster, List<String> sentinelNodes, int minReplicas, Duration timeout,
		int threads, int keys, Duration ttl, Duration waitTime, int workMinMillis, int workMaxMillis,
		int thinkMaxMillis, Duration duration, Path history, Workload workload, int permits) {

	/**
	 * Parse {@code name=value} arguments, as {@link #toArguments()} writes them.
	 * @param args the arguments
	 * @return the settings
	 */
	public static ClientSettings parse(String[] args) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (equals <= 0) {
				throw new IllegalArgumentException("Expected name=value but got '" + arg + "'");
			}
			values.put(arg.substring(0, equals), arg.substring(equals + 1));
		}
		return new ClientSettings(required(values, "id"), Long.parseLong(required(values, "seed")),
				Integer.parseInt(required(values, "storagePort")),
				Integer.parseInt(values.getOrDefault("redisPort", "0")), list(values, "redlockNodes"),
				list(values, "clusterNodes"), values.getOrDefault("sentinelMaster", ""), list(values, "sentinelNodes"),
				Integer.parseInt(values.getOrDefault("minReplicas", "0")), millis(values, "timeout"),
				Integer.parseInt(required(values, "threads")), Integer.parseInt(required(values, "keys")),
				millis(values, "ttl"), millis(values, "waitTime"), Integer.parseInt(required(values, "workMin")),
				Integer.parseInt(required(values, "workMax")), Integer.parseInt(required(values, "thinkMax")),
				millis(values, "duration"), Path.of(required(values, "history")),
				Workload.valueOf(values.getOrDefault("workload", Workload.EXCLUSIVE.name())),
				Integer.parseInt(values.getOrDefault("permits", "1")));
	}

	/**
	 * Return these settings as {@code name=value} arguments.
	 * @return the arguments
	 */
	public List<String> toArguments() {
		List<String> args = new ArrayList<>();
		args.add("id=" + this.id);
		args.add("seed=" + this.seed);
		args.add("storagePort=" + this.storagePort);
		args.add("redisPort=" + this.redisPort);
		args.add("redlockNodes=" + String.join(",", this.redlockNodes));
		args.add("clusterNodes=" + String.join(",", this.clusterNodes));
		args.add("sentinelMaster=" + this.sentinelMaster);
		args.add("sentinelNodes=" + String.join(",", this.sentinelNodes));
		args.add("minReplicas=" + this.minReplicas);
		args.add("timeout=" + this.timeout.toMillis());
		args.add("threads=" + this.threads);
		args.add("keys=" + this.keys);
		args.add("ttl=" + this.ttl.toMillis());
		args.add("waitTime=" + this.waitTime.toMillis());
		args.add("workMin=" + this.workMinMillis);
		args.add("workMax=" + this.workMaxMillis);
		args.add("thinkMax=" + this.thinkMaxMillis);
		args.add("duration=" + this.duration.toMillis());
		args.add("history=" + this.history);
		args.add("workload=" + this.workload.name());
		args.add("permits=" + this.permits);
		return args;
	}

	/**
	 * Return the Spring properties of the client application.
	 * @return the properties
	 */
	Map<String, Object> springProperties() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("logging.level.root", "WARN");
		properties.put("faults.client", this.id);
		properties.put("spring.data.redis.host", "127.0.0.1");
		properties.put("spring.data.redis.timeout", this.timeout.toMillis() + "ms");
		properties.put("spring.data.redis.connect-timeout", this.timeout.toMillis() + "ms");
		properties.put("spring.data.redis.lettuce.shutdown-timeout", "0ms");
		if (!this.clusterNodes.isEmpty()) {
			properties.put("spring.data.redis.cluster.nodes", String.join(",", this.clusterNodes));
			// So that Lettuce follows a failover within about a second.
			properties.put("spring.data.redis.lettuce.cluster.refresh.adaptive", true);
			properties.put("spring.data.redis.lettuce.cluster.refresh.period", "1s");
		}
		else if (!this.sentinelMaster.isEmpty()) {
			properties.put("spring.data.redis.sentinel.master", this.sentinelMaster);
			properties.put("spring.data.redis.sentinel.nodes", String.join(",", this.sentinelNodes));
		}
		else if (this.redlockNodes.isEmpty()) {
			properties.put("spring.data.redis.port", this.redisPort);
		}
		else {
			// Locks go through Redlock; the application's own connection is not used.
			properties.put("spring.data.redis.port", this.storagePort);
			properties.put("distlock.redlock.nodes", String.join(",", this.redlockNodes));
			properties.put("distlock.redlock.node-timeout", this.timeout.toMillis() + "ms");
		}
		if (this.minReplicas > 0) {
			properties.put("distlock.replication.min-replicas", this.minReplicas);
		}
		properties.put("faults.ttl", this.ttl.toMillis() + "ms");
		properties.put("faults.wait-time", this.waitTime.toMillis() + "ms");
		return properties;
	}

	private static String required(Map<String, String> values, String name) {
		String value = values.get(name);
		if (value == null) {
			throw new IllegalArgumentException("Missing argument " + name + "=...");
		}
		return value;
	}

	private static List<String> list(Map<String, String> values, String name) {
		String value = values.getOrDefault(name, "");
		return value.isEmpty() ? List.of() : List.of(value.split(","));
	}

	private static Duration millis(Map<String, String> values, String name) {
		return Duration.ofMillis(Long.parseLong(required(values, name)));
	}

}
