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
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

/**
 * The processes behind one {@link RedisServer} across its restarts, all on the same port
 * in the same directory: launching, stopping, killing, and releasing the directory and
 * the port when closed.
 * <p>
 * Not thread-safe: the server calls it only while holding its own lock.
 */
final class ServerLifecycle {

	private static final int PORT_ATTEMPTS = 3;

	private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	// How long a restart waits for its port to be released by whatever still holds it.
	private static final Duration PORT_WAIT = Duration.ofSeconds(5);

	private final Object server;

	private final RedisBinary binary;

	private final int port;

	private final @Nullable String password;

	private final WorkDirectory directory;

	private final Supplier<List<String>> arguments;

	private final Supplier<@Nullable SSLContext> ssl;

	private @Nullable RedisProcess process;

	private boolean closed;

	/**
	 * Create the lifecycle of a server, asking for its arguments and SSL context anew at
	 * each launch.
	 */
	ServerLifecycle(Object server, RedisBinary binary, int port, @Nullable String password, WorkDirectory directory,
			Supplier<List<String>> arguments, Supplier<@Nullable SSLContext> ssl) {
		this.server = server;
		this.binary = binary;
		this.port = port;
		this.password = password;
		this.directory = directory;
		this.arguments = arguments;
		this.ssl = ssl;
	}

	/**
	 * Create a server on a free port and launch it, on a new port and server if the port
	 * is taken by then; a server that fails to launch is closed.
	 */
	static <S extends RedisEndpoint> S startOnFreePort(IntFunction<S> create, Function<S, ServerLifecycle> lifecycle) {
		RedisStartupException failure = null;
		// Another JVM may bind a port between our check that it is free and the server
		// binding it, so a new port is tried.
		for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
			S server = create.apply(PortAllocator.allocate());
			try {
				lifecycle.apply(server).launch();
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

	void launch() {
		if (this.closed) {
			throw new IllegalStateException(this.server + " is closed");
		}
		this.process = RedisProcess.start(this.binary, this.arguments.get(), this.port, this.password, this.ssl.get(),
				this.directory, START_TIMEOUT);
	}

	// Stop, then launch again, waiting for whatever still holds the port to let go.
	void restart() {
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
				Polling.sleep(Duration.ofMillis(100), "waiting to restart");
			}
		}
	}

	boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	boolean isPaused() {
		return this.process != null && this.process.isPaused();
	}

	RedisProcess running() {
		RedisProcess process = this.process;
		if (process == null || !process.isAlive()) {
			throw new IllegalStateException(this.server + " is not running");
		}
		return process;
	}

	void stop() {
		if (this.process != null) {
			this.process.terminate(STOP_TIMEOUT);
			this.process = null;
		}
	}

	void kill() {
		if (this.process != null) {
			this.process.kill();
			this.process = null;
		}
	}

	// Kill the process if any, delete the directory and release the port; once only.
	void close() {
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

}
