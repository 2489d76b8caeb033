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

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

/**
 * A real {@code redis-server} process on a free {@code 127.0.0.1} port, persisting
 * nothing, which tests can stop, kill, restart on the same port, and pause.
 * <p>
 * The binary is the one named by {@code DISTLOCK_REDIS_SERVER} (or system property
 * {@code distlock.redis.server}), else the one shipped in
 * {@code com.github.codemonstur:embedded-redis}.
 */
public final class RedisServer implements RedisEndpoint {

	static final String HOST = "127.0.0.1";

	private final RedisBinary binary;

	private final Kind kind;

	private final List<String> extraArgs;

	private final @Nullable String password;

	private final int port;

	private final WorkDirectory directory;

	private final ServerLifecycle lifecycle;

	// --replicaof and --masterauth for the next launch; changed when a failover gives
	// the server another primary.
	private List<String> replication;

	private RedisServer(RedisBinary binary, Kind kind, List<String> extraArgs, List<String> replication, int port) {
		this.binary = binary;
		this.kind = kind;
		this.extraArgs = extraArgs;
		this.replication = replication;
		this.password = ServerArguments.requirePass(extraArgs);
		this.port = port;
		this.directory = WorkDirectory.create();
		this.lifecycle = new ServerLifecycle(this, binary, port, this.password, this.directory, this::arguments,
				this::sslContext);
	}

	/**
	 * Start a server and wait until it answers commands. It runs with
	 * {@code --bind 127.0.0.1 --port <free port> --save "" --appendonly no} in a fresh
	 * temporary directory.
	 * @param extraArgs further {@code redis-server} arguments, such as
	 * {@code "--requirepass", "secret"}
	 * @return the running server, to be closed by the caller
	 * @throws RedisStartupException if it does not start within 10 seconds
	 */
	public static RedisServer start(String... extraArgs) {
		return start(Kind.PLAIN, List.of(extraArgs), List.of());
	}

	/**
	 * Start a server that accepts only TLS connections, with the {@link TestCertificates}
	 * server certificate and {@code --tls-auth-clients no}; pass
	 * {@code "--tls-auth-clients", "yes"} to require the client certificate. Its
	 * {@link #uri()} starts with {@code rediss://}.
	 * @param extraArgs further {@code redis-server} arguments
	 * @return the running server, to be closed by the caller
	 * @throws RedisStartupException if it does not start within 10 seconds, for example
	 * because the binary lacks TLS (see {@link #isTlsSupported()})
	 */
	public static RedisServer startTls(String... extraArgs) {
		return start(Kind.TLS, List.of(extraArgs), List.of());
	}

	/**
	 * Start a replica of the given primary, with {@code --masterauth} when the primary
	 * has a password, and wait until its link to the primary is up and the initial sync
	 * is done. A replica of a TLS primary uses TLS itself and for replication.
	 * @param primary the running primary
	 * @param extraArgs further {@code redis-server} arguments
	 * @return the running replica, to be closed by the caller
	 * @throws RedisStartupException if it does not start within 10 seconds
	 * @throws IllegalStateException if it does not sync within 10 seconds
	 */
	public static RedisServer startReplicaOf(RedisServer primary, String... extraArgs) {
		List<String> args = new ArrayList<>(List.of(extraArgs));
		if (primary.isTls()) {
			args.addAll(0, List.of("--tls-replication", "yes"));
		}
		RedisServer replica = start(primary.isTls() ? Kind.TLS : Kind.PLAIN, List.copyOf(args),
				ServerArguments.replicationOf(primary));
		try {
			ReplicationProbe.awaitReplicating(replica, primary, ReplicationProbe.TIMEOUT);
		}
		catch (RuntimeException ex) {
			replica.close();
			throw ex;
		}
		return replica;
	}

	/**
	 * Start a sentinel whose configuration file, written to its working directory on the
	 * first launch, is {@code port <port>} followed by the given text.
	 */
	static RedisServer startSentinel(String config) {
		return start(Kind.SENTINEL, List.of(config), List.of());
	}

	/**
	 * Return whether the {@code redis-server} binary supports TLS, finding out once by
	 * starting a TLS server. Tests of TLS should skip otherwise, such as with
	 * {@code assumeTrue(RedisServer.isTlsSupported(), "redis-server lacks TLS")}.
	 * @return whether {@link #startTls(String...)} can work
	 */
	public static synchronized boolean isTlsSupported() {
		return ServerTls.isSupported();
	}

	private static RedisServer start(Kind kind, List<String> args, List<String> replication) {
		RedisBinary binary = RedisBinary.resolve();
		return ServerLifecycle.startOnFreePort((port) -> new RedisServer(binary, kind, args, replication, port),
				(server) -> server.lifecycle);
	}

	@Override
	public String host() {
		return HOST;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public @Nullable String password() {
		return this.password;
	}

	@Override
	public boolean isControllable() {
		return true;
	}

	@Override
	public boolean isTls() {
		return this.kind == Kind.TLS;
	}

	/**
	 * Open a new authenticated connection whose connect and reads are bounded by the
	 * given timeout; to a TLS server with {@link TestCertificates#sslContext(boolean)},
	 * presenting the client certificate.
	 * @param timeout the limit for connecting and for each read
	 * @return the connection, to be closed by the caller
	 */
	@Override
	public RespConnection connect(Duration timeout) {
		return RespConnection.open(HOST, this.port, this.password, timeout, sslContext());
	}

	/**
	 * Wait until at least the given number of replicas are online and have acknowledged
	 * everything this server had written when the call began. Replicas acknowledge once a
	 * second, so this can take that long.
	 * @param count how many replicas to wait for
	 * @throws IllegalStateException if they are not in sync within 10 seconds
	 */
	public void awaitReplicasInSync(int count) {
		ReplicationProbe.awaitInSync(this, count);
	}

	/**
	 * Create or change an ACL user with {@code ACL SETUSER}, for example
	 * {@code aclSetUser("alice", "on", ">secret", "~lock:*", "+get")}.
	 * @param name the user name
	 * @param rules the ACL rules, as for {@code ACL SETUSER}
	 */
	public void aclSetUser(String name, String... rules) {
		List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", name));
		command.addAll(List.of(rules));
		command(command.toArray(String[]::new));
	}

	/**
	 * Return the operating-system process id of the running server.
	 * @return the pid
	 * @throws IllegalStateException if the server is not running
	 */
	public synchronized long pid() {
		return this.lifecycle.running().pid();
	}

	/**
	 * Return whether the server process is alive, paused or not.
	 * @return whether it is running
	 */
	public synchronized boolean isRunning() {
		return this.lifecycle.isRunning();
	}

	/**
	 * Return whether the server is frozen by {@link #pause()}.
	 * @return whether it is paused
	 */
	public synchronized boolean isPaused() {
		return this.lifecycle.isPaused();
	}

	/**
	 * Return everything the server has printed to stdout and stderr, across restarts.
	 * @return the output
	 */
	public String output() {
		return this.directory.readLog(0);
	}

	@Override
	public synchronized void stop() {
		this.lifecycle.stop();
	}

	@Override
	public synchronized void kill() {
		this.lifecycle.kill();
	}

	@Override
	public synchronized void restart() {
		this.lifecycle.restart();
	}

	/**
	 * Bring the server back to running and answering if a test stopped, killed or paused
	 * it; does nothing otherwise.
	 */
	public synchronized void ensureRunning() {
		if (isPaused()) {
			resume();
		}
		if (!isRunning()) {
			restart();
		}
	}

	@Override
	public synchronized void pause() {
		this.lifecycle.running().pause();
	}

	@Override
	public synchronized void resume() {
		this.lifecycle.running().resume();
	}

	@Override
	public void debugSleep(Duration duration) {
		if (!isRunning()) {
			throw new IllegalStateException(this + " is not running");
		}
		String seconds = BigDecimal.valueOf(duration.toMillis(), 3).toPlainString();
		RespConnection connection = connect(duration.plus(RespConnection.DEFAULT_TIMEOUT));
		connection.send("DEBUG", "SLEEP", seconds);
		// The reply is read on a daemon thread so the caller goes on while the server
		// sleeps; an error (the server killed meanwhile, say) is expected and ignored.
		Thread reader = new Thread(() -> {
			try (connection) {
				connection.read();
			}
			catch (RuntimeException ex) {
				// See above.
			}
		}, "distlock-redis-debug-sleep-" + this.port);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Kill the server if it is running (also when paused), delete its directory and
	 * release its port. Does nothing when already closed.
	 */
	@Override
	public synchronized void close() {
		this.lifecycle.close();
	}

	@Override
	public String toString() {
		return ((this.kind == Kind.SENTINEL) ? "redis-sentinel at " : "redis-server at ") + uri();
	}

	/**
	 * Return a section of {@code INFO}.
	 */
	String info(String section) {
		Object info = command("INFO", section);
		return (info != null) ? info.toString() : "";
	}

	/**
	 * Make the next launch replicate the given primary, or none.
	 */
	synchronized void replicateOnRestart(@Nullable RedisServer primary) {
		this.replication = (primary != null) ? ServerArguments.replicationOf(primary) : List.of();
	}

	private List<String> arguments() {
		return ServerArguments.launch(this.kind, this.binary, this.port, this.replication, this.extraArgs,
				this.directory.path());
	}

	private @Nullable SSLContext sslContext() {
		return (this.kind == Kind.TLS) ? ServerTls.clientContext() : null;
	}

	// Which process the server runs; ServerArguments builds its command line.
	enum Kind {

		PLAIN, TLS, SENTINEL

	}

}
