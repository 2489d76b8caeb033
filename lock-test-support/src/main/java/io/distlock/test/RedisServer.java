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
import java.util.List;

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

	private final RedisBinary binary;

	private final List<String> extraArgs;

	private final @Nullable String password;

	private final int port;

	private final WorkDirectory directory;

	private @Nullable RedisProcess process;

	private boolean closed;

	private RedisServer(RedisBinary binary, List<String> extraArgs, int port) {
		this.binary = binary;
		this.extraArgs = extraArgs;
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
		RedisBinary binary = RedisBinary.resolve();
		List<String> args = List.of(extraArgs);
		RedisStartupException failure = null;
		// Another JVM may bind a port between our check that it is free and the server
		// binding it, so a new port is tried.
		for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
			RedisServer server = new RedisServer(binary, args, PortAllocator.allocate());
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
		return "redis-server at " + uri();
	}

	private void launch() {
		if (this.closed) {
			throw new IllegalStateException(this + " is closed");
		}
		this.process = RedisProcess.start(this.binary, this.port, this.extraArgs, this.password, this.directory,
				START_TIMEOUT);
	}

	private RedisProcess running() {
		RedisProcess process = this.process;
		if (process == null || !process.isAlive()) {
			throw new IllegalStateException(this + " is not running");
		}
		return process;
	}

	private static @Nullable String requirePass(List<String> args) {
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
