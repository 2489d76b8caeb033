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
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.distlock.faults.client.ClientSettings;
import io.distlock.faults.client.FaultClient;

/**
 * A client JVM started by a scenario: {@link FaultClient} on the test class path, with
 * its output in a log file and its standard input a pipe from the test. Every client is
 * killed when the test JVM exits, whatever happened.
 */
final class ClientProcess implements AutoCloseable {

	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> running.forEach(Process::destroyForcibly), "fault-client-cleanup"));
	}

	private final ClientSettings settings;

	private final Process process;

	private final Path log;

	private final OutputStream input;

	private ClientProcess(ClientSettings settings, Process process, Path log) {
		this.settings = settings;
		this.process = process;
		this.log = log;
		this.input = process.getOutputStream();
	}

	/**
	 * Start a client JVM.
	 * @param settings its settings
	 * @param log the file for its standard output and error
	 * @return the started process
	 */
	static ClientProcess start(ClientSettings settings, Path log) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		// Small and quick to start: these JVMs only run a few threads for a few seconds.
		command.addAll(List.of("-Xmx128m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
				"-XX:-UsePerfData", "-Djava.awt.headless=true", "-Dorg.springframework.boot.logging.LoggingSystem=none",
				"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.showDateTime=true",
				"-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
		command.add("-cp");
		command.add(classPath());
		command.add(FaultClient.class.getName());
		command.addAll(settings.toArguments());
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
		try {
			Process process = builder.start();
			running.add(process);
			return new ClientProcess(settings, process, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start client " + settings.id(), ex);
		}
	}

	private static String classPath() {
		String testClassPath = System.getProperty("surefire.test.class.path");
		return (testClassPath != null && !testClassPath.isBlank()) ? testClassPath
				: System.getProperty("java.class.path");
	}

	String id() {
		return this.settings.id();
	}

	long pid() {
		return this.process.pid();
	}

	Path history() {
		return this.settings.history();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Wait until the client printed the marker.
	 * @param marker the marker line
	 * @param timeout how long to wait
	 */
	void await(String marker, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!output().contains(marker)) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("Client " + id() + " exited with code " + this.process.exitValue()
						+ " before printing '" + marker + "':\n" + output());
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						"Client " + id() + " did not print '" + marker + "' within " + timeout + ":\n" + output());
			}
			sleep(20);
		}
	}

	/**
	 * Tell the client to start its workers.
	 */
	void go() {
		try {
			this.input.write("go\n".getBytes(StandardCharsets.UTF_8));
			this.input.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the workers of client " + id(), ex);
		}
	}

	/**
	 * Freeze the JVM with SIGSTOP, as a long stop-the-world pause would.
	 */
	void freeze() {
		signal("STOP");
	}

	/**
	 * Continue the JVM with SIGCONT.
	 */
	void thaw() {
		signal("CONT");
	}

	/**
	 * Kill the JVM with SIGKILL and wait until it is gone.
	 */
	void kill() {
		this.process.destroyForcibly();
		waitFor(Duration.ofSeconds(10));
		running.remove(this.process);
	}

	/**
	 * Close the client's standard input, which makes a client that is done exit, and wait
	 * for it; kill it if it does not exit in time.
	 * @param timeout how long to wait
	 * @return whether it exited by itself
	 */
	boolean finish(Duration timeout) {
		closeInput();
		boolean exited = waitFor(timeout);
		if (!exited) {
			kill();
		}
		running.remove(this.process);
		return exited;
	}

	/**
	 * Return everything the client printed.
	 * @return the output
	 */
	String output() {
		try {
			return Files.exists(this.log) ? Files.readString(this.log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			return "";
		}
	}

	/**
	 * Continue the JVM if frozen and kill it if still running.
	 */
	@Override
	public void close() {
		if (this.process.isAlive()) {
			thawQuietly();
			kill();
		}
		closeInput();
	}

	private void thawQuietly() {
		try {
			signal("CONT");
		}
		catch (RuntimeException ex) {
			// Killed next anyway.
		}
	}

	private void closeInput() {
		try {
			this.input.close();
		}
		catch (IOException ex) {
			// Already closed or the process is gone.
		}
	}

	private boolean waitFor(Duration timeout) {
		try {
			return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).redirectErrorStream(true)
				.start();
			if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
