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
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

/**
 * One run of a {@code redis-server} process, from launch until it exits: a restart is a
 * new {@code RedisProcess}.
 */
final class RedisProcess {

	private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

	private final Process process;

	private volatile boolean paused;

	private RedisProcess(Process process) {
		this.process = process;
	}

	/**
	 * Launch a server and wait until it answers commands on the given port, over TLS when
	 * an SSL context is given.
	 * @param arguments everything after the binary, such as
	 * {@link ServerArguments#server}
	 */
	static RedisProcess start(RedisBinary binary, List<String> arguments, int port, @Nullable String password,
			@Nullable SSLContext ssl, WorkDirectory directory, Duration timeout) {
		long logOffset = directory.logSize();
		List<String> command = new ArrayList<>();
		command.add(binary.path().toString());
		command.addAll(arguments);
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.path().toFile())
			.redirectErrorStream(true)
			// A file, not a pipe: nobody has to keep reading it for the server to go on.
			.redirectOutput(Redirect.appendTo(directory.logFile().toFile()));
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw new RedisStartupException("Could not run " + binary.path(), ex);
		}
		ShutdownCleanup.track(process);
		RedisProcess redis = new RedisProcess(process);
		try {
			redis.awaitReady(port, password, ssl, timeout, () -> directory.readLog(logOffset));
		}
		catch (RuntimeException ex) {
			try {
				redis.kill();
			}
			catch (RuntimeException killFailure) {
				ex.addSuppressed(killFailure);
			}
			throw ex;
		}
		return redis;
	}

	private void awaitReady(int port, @Nullable String password, @Nullable SSLContext ssl, Duration timeout,
			Supplier<String> output) {
		String address = RedisServer.HOST + ":" + port;
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!isOwnServer(port, password, ssl)) {
			if (!this.process.isAlive()) {
				throw new RedisStartupException("redis-server exited with code " + this.process.exitValue()
						+ " instead of starting on " + address, output.get());
			}
			if (System.nanoTime() - deadline > 0) {
				throw new RedisStartupException(
						"redis-server did not answer on " + address + " within " + timeout.toMillis() + " ms",
						output.get());
			}
			Polling.sleep(Duration.ofMillis(20), "waiting for redis-server to start");
		}
	}

	// Matching the pid tells our server apart from another process that got the port
	// first, whose answers would otherwise look like a successful start.
	private boolean isOwnServer(int port, @Nullable String password, @Nullable SSLContext ssl) {
		try (RespConnection connection = RespConnection.open(RedisServer.HOST, port, password, PROBE_TIMEOUT, ssl)) {
			Object info = connection.command("INFO", "server");
			return (info instanceof String text) && text.contains("process_id:" + pid() + "\r\n");
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	boolean isPaused() {
		return this.paused && isAlive();
	}

	void pause() {
		signal("STOP");
		this.paused = true;
	}

	void resume() {
		signal("CONT");
		this.paused = false;
	}

	/**
	 * Ask the server to shut down with SIGTERM, and kill it if it has not exited within
	 * the timeout.
	 */
	void terminate(Duration timeout) {
		if (this.paused) {
			// A stopped process would only act on SIGTERM once continued.
			resume();
		}
		this.process.destroy();
		if (!awaitExit(timeout)) {
			kill();
		}
		ShutdownCleanup.untrack(this.process);
	}

	void kill() {
		// SIGKILL ends a paused process too, without continuing it first.
		this.process.destroyForcibly();
		if (!awaitExit(KILL_TIMEOUT)) {
			throw new IllegalStateException("redis-server " + pid() + " survived SIGKILL for " + KILL_TIMEOUT);
		}
		this.paused = false;
		ShutdownCleanup.untrack(this.process);
	}

	private boolean awaitExit(Duration timeout) {
		try {
			return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for redis-server " + pid() + " to exit", ex);
		}
	}

	private void signal(String signal) {
		if (!isAlive()) {
			throw new IllegalStateException("redis-server " + pid() + " is not running");
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).redirectErrorStream(true)
				.start();
			String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid() + " failed: " + output.trim());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run kill -" + signal + " " + pid(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + pid(), ex);
		}
	}

}
