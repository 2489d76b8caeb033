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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

	private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	// How long a restart waits for its port to be released by whatever still holds it.
	private static final Duration PORT_WAIT = Duration.ofSeconds(5);

	private static final int PORT_ATTEMPTS = 3;

	// How long a new replica may take to connect to its primary and sync.
	private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(10);

	private static final Pattern ACKNOWLEDGED = Pattern.compile(",offset=(\\d+)");

	private static @Nullable Boolean tlsSupported;

	private static @Nullable SSLContext clientSsl;

	private final RedisBinary binary;

	private final Kind kind;

	private final List<String> extraArgs;

	private final @Nullable String password;

	private final int port;

	private final WorkDirectory directory;

	// --replicaof and --masterauth for the next launch; changed when a failover gives
	// the server another primary.
	private List<String> replication;

	private @Nullable RedisProcess process;

	private boolean closed;

	private RedisServer(RedisBinary binary, Kind kind, List<String> extraArgs, List<String> replication, int port) {
		this.binary = binary;
		this.kind = kind;
		this.extraArgs = extraArgs;
		this.replication = replication;
		this.password = requirePass(extraArgs);
		this.port = port;
		this.directory = WorkDirectory.create();
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
				replicationArgs(primary));
		try {
			replica.awaitReplicating(primary, REPLICATION_TIMEOUT);
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
		Boolean supported = tlsSupported;
		if (supported == null) {
			try (RedisServer server = startTls()) {
				supported = true;
			}
			catch (RedisStartupException ex) {
				// "Bad directive" for --tls-port in a build without TLS.
				if (!ex.getMessage().toLowerCase(Locale.ROOT).contains("tls")) {
					throw ex;
				}
				supported = false;
			}
			tlsSupported = supported;
		}
		return supported;
	}

	private static RedisServer start(Kind kind, List<String> args, List<String> replication) {
		RedisBinary binary = RedisBinary.resolve();
		RedisStartupException failure = null;
		// Another JVM may bind a port between our check that it is free and the server
		// binding it, so a new port is tried.
		for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
			RedisServer server = new RedisServer(binary, kind, args, replication, PortAllocator.allocate());
			try {
				server.launch();
				return server;
			}
			catch (RedisStartupException ex) {
				server.close();
				if (!ex.isPortInUse()) {
					throw ex;
				}
				failure = ex;
			}
			catch (RuntimeException ex) {
				server.close();
				throw ex;
			}
		}
		throw failure;
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
		String offset = Polling.field(info("replication"), "master_repl_offset");
		long written = (offset != null) ? Long.parseLong(offset) : 0;
		Polling.await(REPLICATION_TIMEOUT,
				count + " replicas of " + this + " to acknowledge replication offset " + written,
				() -> replicasInSync(written) >= count, () -> "INFO replication:\n" + info("replication"));
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
		return running().pid();
	}

	/**
	 * Return whether the server process is alive, paused or not.
	 * @return whether it is running
	 */
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Return whether the server is frozen by {@link #pause()}.
	 * @return whether it is paused
	 */
	public synchronized boolean isPaused() {
		return this.process != null && this.process.isPaused();
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
		if (this.process != null) {
			this.process.terminate(STOP_TIMEOUT);
			this.process = null;
		}
	}

	@Override
	public synchronized void kill() {
		if (this.process != null) {
			this.process.kill();
			this.process = null;
		}
	}

	@Override
	public synchronized void restart() {
		stop();
		long deadline = System.nanoTime() + PORT_WAIT.toNanos();
		while (true) {
			try {
				launch();
				return;
			}
			catch (RedisStartupException ex) {
				if (!ex.isPortInUse() || System.nanoTime() - deadline > 0) {
					throw ex;
				}
				sleep(Duration.ofMillis(100));
			}
		}
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
		running().pause();
	}

	@Override
	public synchronized void resume() {
		running().resume();
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
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			kill();
		}
		finally {
			this.directory.close();
			PortAllocator.release(this.port);
		}
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
		this.replication = (primary != null) ? replicationArgs(primary) : List.of();
	}

	/**
	 * Wait until this server replicates the given one with its link up.
	 */
	void awaitReplicating(RedisServer primary, Duration timeout) {
		Polling.await(timeout, this + " to replicate " + primary, () -> {
			String info = info("replication");
			return "slave".equals(Polling.field(info, "role"))
					&& Integer.toString(primary.port()).equals(Polling.field(info, "master_port"))
					&& "up".equals(Polling.field(info, "master_link_status"));
		}, () -> "INFO replication of the replica:\n" + info("replication") + "\nserver output:\n" + tail(output()));
	}

	// Replicas listed as "slave0:ip=127.0.0.1,port=6380,state=online,offset=42,lag=0".
	private int replicasInSync(long offset) {
		int inSync = 0;
		for (String line : info("replication").split("\r\n")) {
			if (line.matches("slave\\d+:.*") && line.contains("state=online")) {
				Matcher acknowledged = ACKNOWLEDGED.matcher(line);
				if (acknowledged.find() && Long.parseLong(acknowledged.group(1)) >= offset) {
					inSync++;
				}
			}
		}
		return inSync;
	}

	private static List<String> replicationArgs(RedisServer primary) {
		List<String> args = new ArrayList<>(List.of("--replicaof", HOST, Integer.toString(primary.port())));
		if (primary.password() != null) {
			args.addAll(List.of("--masterauth", primary.password()));
		}
		return List.copyOf(args);
	}

	private void launch() {
		if (this.closed) {
			throw new IllegalStateException(this + " is closed");
		}
		List<String> arguments = switch (this.kind) {
			case PLAIN -> RedisProcess.serverArguments(this.binary, List.of("--port", Integer.toString(this.port)),
					withReplication());
			case TLS -> RedisProcess.serverArguments(this.binary, tlsListen(), withReplication());
			case SENTINEL -> List.of(sentinelConfig().toString(), "--sentinel");
		};
		this.process = RedisProcess.start(this.binary, arguments, this.port, this.password, sslContext(),
				this.directory, START_TIMEOUT);
	}

	private List<String> withReplication() {
		List<String> args = new ArrayList<>(this.replication);
		args.addAll(this.extraArgs);
		return args;
	}

	private List<String> tlsListen() {
		return List.of("--port", "0", "--tls-port", Integer.toString(this.port), "--tls-cert-file",
				TestCertificates.serverCertificateFile().toString(), "--tls-key-file",
				TestCertificates.serverKeyFile().toString(), "--tls-ca-cert-file",
				TestCertificates.caCertificateFile().toString(), "--tls-auth-clients", "no",
				// As a replica's client certificate, should the primary ask for one.
				"--tls-client-cert-file", TestCertificates.clientCertificateFile().toString(), "--tls-client-key-file",
				TestCertificates.clientKeyFile().toString());
	}

	// Written on the first launch only: a sentinel rewrites its file with what it learns,
	// which a restart should keep.
	private Path sentinelConfig() {
		Path file = this.directory.path().resolve("sentinel.conf");
		if (!Files.exists(file)) {
			try {
				Files.writeString(file, "port " + this.port + "\n" + this.extraArgs.get(0));
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not write " + file, ex);
			}
		}
		return file;
	}

	private @Nullable SSLContext sslContext() {
		if (this.kind != Kind.TLS) {
			return null;
		}
		synchronized (RedisServer.class) {
			SSLContext context = clientSsl;
			if (context == null) {
				context = TestCertificates.sslContext(true);
				clientSsl = context;
			}
			return context;
		}
	}

	private static String tail(String output) {
		return (output.length() <= 2000) ? output : "..." + output.substring(output.length() - 2000);
	}

	private RedisProcess running() {
		RedisProcess process = this.process;
		if (process == null || !process.isAlive()) {
			throw new IllegalStateException(this + " is not running");
		}
		return process;
	}

	private enum Kind {

		PLAIN, TLS, SENTINEL

	}

	static @Nullable String requirePass(List<String> args) {
		String password = null;
		for (int i = 0; i < args.size() - 1; i++) {
			if (args.get(i).equalsIgnoreCase("--requirepass")) {
				password = args.get(i + 1);
			}
		}
		return password;
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting to restart", ex);
		}
	}

}
