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
import java.util.List;
import java.util.Objects;

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

	// How long a server may not answer before a sentinel takes it for down. At 1s a
	// primary slowed down by a loaded machine was failed over on its own, in the middle
	// of a test that had not asked for it.
	private static final Duration DOWN_AFTER = Duration.ofSeconds(2);

	// Bounds an election and the reconfiguration of the replicas; a failed election is
	// retried after twice this. A failover that overruns it is aborted and the promoted
	// replica demoted again, which a loaded machine made happen at 5s (one sentinel left
	// naming the promoted replica, the others the old primary): 10s leaves a margin
	// and keeps a retry within the 30s that a test waits for a failover.
	private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration AWAIT_FAILOVER_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServer> servers;

	private final List<RedisServer> sentinels;

	private final SentinelProbe probe;

	private volatile RedisServer primary;

	private RedisSentinelGroup(List<RedisServer> servers, List<RedisServer> sentinels) {
		this.servers = List.copyOf(servers);
		this.sentinels = List.copyOf(sentinels);
		this.primary = servers.get(0);
		this.probe = new SentinelProbe(this, MASTER_NAME, this.servers, this.sentinels);
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
			group.probe.awaitSettled(primary, group.replicas(), STARTUP_TIMEOUT);
			return group;
		}
		catch (RuntimeException ex) {
			Closeables.closeAll(sentinels, ex);
			Closeables.closeAll(servers, ex);
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
				String message = ex.getMessage();
				if (message != null && (message.contains("NOGOODSLAVE") || message.contains("INPROG"))) {
					return false;
				}
				throw new IllegalStateException("SENTINEL FAILOVER failed", ex);
			}
		}, this.probe::describe);
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
	 * Bring the group back to a primary with every replica in sync, after a test stopped,
	 * killed, paused or failed over its servers: resume or restart each data server, take
	 * as primary the one every sentinel names (normally the current {@link #primary()}),
	 * make every other server its replica, wait until every sentinel has settled on that
	 * primary and every replica follows it, then until every replica has acknowledged
	 * everything the primary has written.
	 * @throws IllegalStateException if that does not happen within 30 seconds, with the
	 * state of every sentinel and server
	 */
	public synchronized void restore() {
		for (RedisServer server : this.servers) {
			if (server != this.primary) {
				server.ensureRunning();
			}
		}
		// The primary the sentinels agree on: on a loaded machine they may have failed
		// over again on their own, and replicas told to follow another server would be
		// told otherwise by them.
		Polling.await(AWAIT_FAILOVER_TIMEOUT, "the sentinels to agree on a primary",
				() -> this.probe.agreedPrimary() != null, this.probe::describe);
		RedisServer current = Objects.requireNonNull(this.probe.agreedPrimary(),
				() -> "The sentinels agreed on a primary, then on none\n" + this.probe.describe());
		this.primary = current;
		List<RedisServer> replicas = replicas();
		for (RedisServer replica : replicas) {
			replica.ensureRunning();
			replica.replicateOnRestart(current);
			// Answers "already connected" when it follows the primary already; a server
			// back from the dead may still be told otherwise by a sentinel a moment
			// later, which the wait below outlasts.
			replica.command("REPLICAOF", current.host(), Integer.toString(current.port()));
		}
		this.probe.awaitSettled(current, replicas, AWAIT_FAILOVER_TIMEOUT);
		ReplicationProbe.awaitInSync(current, replicas.size(), AWAIT_FAILOVER_TIMEOUT,
				() -> "\n" + this.probe.describe());
	}

	/**
	 * Close the sentinels, then every data server.
	 */
	@Override
	public void close() {
		RuntimeException failure = new IllegalStateException("Could not close " + this);
		Closeables.closeAll(this.sentinels, failure);
		Closeables.closeAll(this.servers, failure);
		if (failure.getSuppressed().length > 0) {
			throw failure;
		}
	}

	@Override
	public String toString() {
		return "sentinel group " + MASTER_NAME + " with sentinels " + sentinelAddresses();
	}

	/**
	 * Close the connections of the server's clients, but not the sentinels' own (named
	 * {@code sentinel-...}), which they need to finish the failover.
	 */
	private static void disconnectClients(RedisServer server) {
		for (String client : String.valueOf(server.command("CLIENT", "LIST")).split("\r?\n")) {
			String id = field(client, "id");
			String name = field(client, "name");
			String flags = field(client, "flags");
			// Not a replication link (S: a replica's, M: to its own primary).
			boolean ordinary = flags != null && !flags.contains("S") && !flags.contains("M");
			if (id != null && ordinary && (name == null || !name.startsWith("sentinel-"))) {
				try {
					server.command("CLIENT", "KILL", "ID", id, "SKIPME", "yes");
				}
				catch (RedisCommandException ex) {
					// Gone already.
				}
			}
		}
	}

	private static @Nullable String field(String client, String field) {
		for (String pair : client.split(" ")) {
			if (pair.startsWith(field + "=")) {
				String value = pair.substring(field.length() + 1);
				return value.isEmpty() ? null : value;
			}
		}
		return null;
	}

	private RedisServer awaitFailover(RedisServer old) {
		Polling.await(AWAIT_FAILOVER_TIMEOUT, "the sentinels to promote a replica of " + old,
				() -> this.probe.promoted(old) != null, this.probe::describe);
		RedisServer promoted = Objects.requireNonNull(this.probe.promoted(old),
				() -> "The sentinels promoted a replica of " + old + ", then none\n" + this.probe.describe());
		this.primary = promoted;
		for (RedisServer server : this.servers) {
			server.replicateOnRestart((server != promoted) ? promoted : null);
		}
		if (old.isRunning()) {
			// What the sentinels would do too, but only after seeing it as a primary for
			// 8 seconds: demote it, and drop its clients, so that they ask the sentinels
			// for the new primary instead of writing to a replica.
			old.command("REPLICAOF", RedisServer.HOST, Integer.toString(promoted.port()));
			disconnectClients(old);
		}
		this.probe.awaitSettled(promoted, replicas(), AWAIT_FAILOVER_TIMEOUT);
		return promoted;
	}

}
