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

package io.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A Redis Sentinel setup on loopback: a primary, its replicas and three sentinels
 * monitoring it with quorum 2, tuned so that a failover takes seconds. Every
 * {@link RedisServer} here persists nothing.
 * <p>
 * After a failover, each data server that is restarted comes back as a replica of the new
 * primary.
 */
public final class RedisSentinelGroup implements AutoCloseable {

	private static final String MASTER_NAME = "distlock";

	private static final int SENTINELS = 3;

	private static final int QUORUM = 2;

	private static final Duration DOWN_AFTER = Duration.ofSeconds(1);

	// Bounds an election and the reconfiguration of the replicas; a failed election is
	// retried after twice this.
	private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration AWAIT_FAILOVER_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServer> servers;

	private final List<RedisServer> sentinels;

	private volatile RedisServer primary;

	private RedisSentinelGroup(List<RedisServer> servers, List<RedisServer> sentinels) {
		this.servers = List.copyOf(servers);
		this.sentinels = List.copyOf(sentinels);
		this.primary = servers.get(0);
	}

	/**
	 * Start a primary, two replicas and three sentinels monitoring them as
	 * {@code distlock}, and wait until every sentinel knows all of them.
	 * @param extraArgs further {@code redis-server} arguments for the primary and the
	 * replicas, such as {@code "--requirepass", "secret"} (which the sentinels and
	 * replicas are given too)
	 * @return the running group, to be closed by the caller
	 */
	public static RedisSentinelGroup start(String... extraArgs) {
		return start(2, extraArgs);
	}

	/**
	 * Start a primary, the given number of replicas and three sentinels monitoring them
	 * as {@code distlock}, and wait until every sentinel knows all of them.
	 * @param replicas how many replicas to start, at least 1
	 * @param extraArgs further {@code redis-server} arguments for the primary and the
	 * replicas
	 * @return the running group, to be closed by the caller
	 */
	public static RedisSentinelGroup start(int replicas, String... extraArgs) {
		if (replicas < 1) {
			throw new IllegalArgumentException("replicas must be at least 1 but was " + replicas);
		}
		List<RedisServer> servers = new ArrayList<>();
		List<RedisServer> sentinels = new ArrayList<>();
		try {
			List<String> args = new ArrayList<>(Arrays.asList(extraArgs));
			String password = ServerArguments.requirePass(args);
			if (password != null) {
				// A primary that a failover turns into a replica must log in to the new
				// one; the replicas get --masterauth from startReplicaOf.
				args.addAll(List.of("--masterauth", password));
			}
			RedisServer primary = RedisServer.start(args.toArray(String[]::new));
			servers.add(primary);
			for (int i = 0; i < replicas; i++) {
				servers.add(RedisServer.startReplicaOf(primary, extraArgs));
			}
			String config = sentinelConfig(primary, replicas);
			for (int i = 0; i < SENTINELS; i++) {
				sentinels.add(RedisServer.startSentinel(config));
			}
			RedisSentinelGroup group = new RedisSentinelGroup(servers, sentinels);
			group.awaitSettled(STARTUP_TIMEOUT);
			return group;
		}
		catch (RuntimeException ex) {
			closeAll(sentinels, ex);
			closeAll(servers, ex);
			throw ex;
		}
	}

	private static String sentinelConfig(RedisServer primary, int replicas) {
		StringBuilder config = new StringBuilder();
		config.append("bind ").append(RedisServer.HOST).append('\n');
		config.append("daemonize no\n");
		config.append("sentinel monitor " + MASTER_NAME + " " + RedisServer.HOST + " " + primary.port() + " " + QUORUM
				+ "\n");
		config.append("sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER.toMillis() + "\n");
		config.append("sentinel failover-timeout " + MASTER_NAME + " " + FAILOVER_TIMEOUT.toMillis() + "\n");
		// Every replica follows the new primary at once.
		config.append("sentinel parallel-syncs " + MASTER_NAME + " " + replicas + "\n");
		if (primary.password() != null) {
			config.append("sentinel auth-pass " + MASTER_NAME + " " + primary.password() + "\n");
		}
		return config.toString();
	}

	/**
	 * Return the name the sentinels monitor the primary under, for
	 * {@code spring.data.redis.sentinel.master}.
	 * @return {@code distlock}
	 */
	public String masterName() {
		return MASTER_NAME;
	}

	/**
	 * Return the sentinels' addresses, for {@code spring.data.redis.sentinel.nodes}.
	 * @return addresses such as {@code 127.0.0.1:26379}
	 */
	public List<String> sentinelAddresses() {
		return this.sentinels.stream().map((sentinel) -> sentinel.host() + ":" + sentinel.port()).toList();
	}

	/**
	 * Return the current primary, which changes with each failover.
	 * @return the primary
	 */
	public RedisServer primary() {
		return this.primary;
	}

	/**
	 * Return every data server but the current primary, in start order, including a
	 * former primary that was killed and not restarted.
	 * @return the replicas
	 */
	public List<RedisServer> replicas() {
		RedisServer current = this.primary;
		return this.servers.stream().filter((server) -> server != current).toList();
	}

	/**
	 * Make the sentinels promote a replica with {@code SENTINEL FAILOVER}, and wait until
	 * every sentinel names it, it is a primary and every running replica follows it.
	 * @return the new primary
	 * @throws IllegalStateException if that does not happen within 30 seconds
	 */
	public synchronized RedisServer failover() {
		RedisServer old = this.primary;
		RedisServer sentinel = this.sentinels.get(0);
		Polling.await(AWAIT_FAILOVER_TIMEOUT, "sentinel " + sentinel + " to start a failover", () -> {
			try {
				sentinel.command("SENTINEL", "FAILOVER", MASTER_NAME);
				return true;
			}
			catch (RedisCommandException ex) {
				// A replica the sentinel has not judged fit yet, or a failover going on.
				if (ex.getMessage().contains("NOGOODSLAVE") || ex.getMessage().contains("INPROG")) {
					return false;
				}
				throw new IllegalStateException("SENTINEL FAILOVER failed", ex);
			}
		}, this::describe);
		return awaitFailover(old);
	}

	/**
	 * Kill the primary with SIGKILL and wait until the sentinels have promoted a replica
	 * as {@link #failover()} does. Restarting the killed server brings it back as a
	 * replica of the new primary.
	 * @return the new primary
	 * @throws IllegalStateException if the failover does not complete within 30 seconds
	 */
	public synchronized RedisServer killPrimaryAndAwaitFailover() {
		RedisServer old = this.primary;
		old.kill();
		return awaitFailover(old);
	}

	/**
	 * Close the sentinels, then every data server.
	 */
	@Override
	public void close() {
		RuntimeException failure = new IllegalStateException("Could not close " + this);
		closeAll(this.sentinels, failure);
		closeAll(this.servers, failure);
		if (failure.getSuppressed().length > 0) {
			throw failure;
		}
	}

	@Override
	public String toString() {
		return "sentinel group " + MASTER_NAME + " with sentinels " + sentinelAddresses();
	}

	private RedisServer awaitFailover(RedisServer old) {
		Polling.await(AWAIT_FAILOVER_TIMEOUT, "the sentinels to promote a replica of " + old,
				() -> promoted(old) != null, this::describe);
		RedisServer promoted = promoted(old);
		this.primary = promoted;
		for (RedisServer server : this.servers) {
			server.replicateOnRestart((server != promoted) ? promoted : null);
		}
		if (old.isRunning()) {
			// What the sentinels would do too, but only after seeing it as a primary for
			// 8 seconds.
			old.command("REPLICAOF", RedisServer.HOST, Integer.toString(promoted.port()));
		}
		awaitSettled(AWAIT_FAILOVER_TIMEOUT);
		return promoted;
	}

	// The server that every sentinel names instead of the old primary, if any.
	private @Nullable RedisServer promoted(RedisServer old) {
		Integer port = null;
		for (RedisServer sentinel : this.sentinels) {
			int named = masterPort(sentinel);
			if (named == old.port() || (port != null && named != port)) {
				return null;
			}
			port = named;
		}
		for (RedisServer server : this.servers) {
			if (port != null && server.port() == port) {
				return server;
			}
		}
		return null;
	}

	// Every sentinel names the primary and sees every running replica and the other
	// sentinels as healthy; the primary is one and every running replica follows it.
	private void awaitSettled(Duration timeout) {
		RedisServer current = this.primary;
		List<RedisServer> running = replicas().stream().filter(RedisServer::isRunning).toList();
		Polling.await(timeout, "the sentinels to settle on primary " + current, () -> {
			if (!"master".equals(Polling.field(current.info("replication"), "role"))) {
				return false;
			}
			for (RedisServer replica : running) {
				String info = replica.info("replication");
				if (!Integer.toString(current.port()).equals(Polling.field(info, "master_port"))
						|| !"up".equals(Polling.field(info, "master_link_status"))) {
					return false;
				}
			}
			for (RedisServer sentinel : this.sentinels) {
				if (masterPort(sentinel) != current.port() || reachable(sentinel, "REPLICAS") < running.size()
						|| reachable(sentinel, "SENTINELS") < SENTINELS - 1) {
					return false;
				}
			}
			return true;
		}, this::describe);
	}

	private static int masterPort(RedisServer sentinel) {
		Object address = sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
		if (address instanceof List<?> hostAndPort && hostAndPort.size() == 2) {
			return Integer.parseInt(String.valueOf(hostAndPort.get(1)));
		}
		return -1;
	}

	// How many replicas (or sentinels) the sentinel lists as reachable. Flags such as
	// master_down (which a sentinel keeps after it voted a primary down) do not matter,
	// nor does what a replica last told the sentinel about its link: it asks only every
	// 10 seconds, and the servers themselves are checked instead.
	private static int reachable(RedisServer sentinel, String what) {
		int reachable = 0;
		for (Map<String, String> instance : instances(sentinel, what)) {
			List<String> flags = List.of(instance.getOrDefault("flags", "").split(","));
			if (!flags.contains("s_down") && !flags.contains("o_down") && !flags.contains("disconnected")) {
				reachable++;
			}
		}
		return reachable;
	}

	private static List<Map<String, String>> instances(RedisServer sentinel, String what) {
		Object reply = sentinel.command("SENTINEL", what, MASTER_NAME);
		List<Map<String, String>> instances = new ArrayList<>();
		if (reply instanceof List<?> list) {
			for (Object element : list) {
				if (element instanceof List<?> fields) {
					Map<String, String> instance = new HashMap<>();
					for (int i = 0; i + 1 < fields.size(); i += 2) {
						instance.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
					}
					instances.add(instance);
				}
			}
		}
		return instances;
	}

	private String describe() {
		StringBuilder state = new StringBuilder("state of ").append(this).append(':');
		for (RedisServer sentinel : this.sentinels) {
			state.append("\nsentinel ").append(sentinel.port()).append(": ");
			try {
				state.append("master ")
					.append(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME))
					.append(", replicas ")
					.append(summary(instances(sentinel, "REPLICAS")))
					.append(", sentinels ")
					.append(summary(instances(sentinel, "SENTINELS")));
			}
			catch (RuntimeException ex) {
				state.append(ex);
			}
		}
		for (RedisServer server : this.servers) {
			state.append("\nserver ").append(server.port()).append(": ");
			if (!server.isRunning()) {
				state.append("not running");
				continue;
			}
			try {
				String info = server.info("replication");
				state.append("role ")
					.append(Polling.field(info, "role"))
					.append(", master_port ")
					.append(Polling.field(info, "master_port"))
					.append(", master_link_status ")
					.append(Polling.field(info, "master_link_status"))
					.append(", connected_slaves ")
					.append(Polling.field(info, "connected_slaves"));
			}
			catch (RuntimeException ex) {
				state.append(ex);
			}
		}
		return state.toString();
	}

	private static List<String> summary(List<Map<String, String>> instances) {
		return instances.stream()
			.map((instance) -> instance.get("port") + "[" + instance.get("flags") + ", link "
					+ instance.getOrDefault("master-link-status", "-") + " to "
					+ instance.getOrDefault("master-port", "-") + "]")
			.toList();
	}

	private static void closeAll(List<RedisServer> servers, RuntimeException failure) {
		for (RedisServer server : servers) {
			try {
				server.close();
			}
			catch (RuntimeException ex) {
				failure.addSuppressed(ex);
			}
		}
	}

}
