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

package io.distlock.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node of the shop: a child JVM running the sample application (through
 * {@link io.distlock.sample.demo.node.DemoNode}) on its own loopback port, with its
 * output in a log file. It ends when the demo ends, also when the demo is killed: it
 * watches the demo's process.
 */
final class Node implements AutoCloseable {

	private static final String HOST = "127.0.0.1";

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private final String name;

	private final int port;

	private final Process process;

	private final Path log;

	private Node(String name, int port, Process process, Path log) {
		this.name = name;
		this.port = port;
		this.process = process;
		this.log = log;
	}

	/**
	 * Start a node; it is not ready before {@link #awaitReady} returns.
	 */
	static Node start(NodeCommand command, String name, List<String> redisArguments, Path logDirectory) {
		int port = freePort();
		Path log = logDirectory.resolve(name + ".log");
		List<String> arguments = new ArrayList<>(List.of("--server.port=" + port, "--server.address=" + HOST,
				"--sample.node=" + name, "--demo.parent-pid=" + ProcessHandle.current().pid()));
		arguments.addAll(redisArguments);
		try {
			Process process = new ProcessBuilder(command.commandLine(arguments)).redirectErrorStream(true)
				.redirectOutput(Redirect.to(log.toFile()))
				.start();
			return new Node(name, port, process, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + name + " with " + command, ex);
		}
	}

	String name() {
		return this.name;
	}

	long pid() {
		return this.process.pid();
	}

	Path log() {
		return this.log;
	}

	URI uri(String path) {
		return URI.create("http://" + HOST + ":" + this.port + path);
	}

	/**
	 * Wait until the node answers HTTP requests.
	 */
	void awaitReady(HttpClient http, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		HttpRequest probe = HttpRequest.newBuilder(uri("/products/1")).timeout(Duration.ofSeconds(2)).build();
		while (true) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.name + " exited with code " + this.process.exitValue()
						+ " while starting; the end of " + this.log + ":\n" + tail(40));
			}
			try {
				http.send(probe, BodyHandlers.discarding());
				return;
			}
			catch (IOException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException(this.name + " did not answer on port " + this.port + " within "
							+ timeout.toSeconds() + " s; the end of " + this.log + ":\n" + tail(40), ex);
				}
				Thread.sleep(200);
			}
		}
	}

	/**
	 * Return the lines of the node's log that contain the given text.
	 */
	List<String> logLines(String containing) {
		return readLog().stream().filter((line) -> line.contains(containing)).toList();
	}

	/**
	 * Ask the node to stop (SIGTERM: Spring closes the application gracefully).
	 */
	void stop() {
		this.process.destroy();
	}

	/**
	 * Stop the node and wait until it has exited, killing it if it takes too long.
	 */
	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	private String tail(int lines) {
		List<String> all = readLog();
		return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
	}

	private List<String> readLog() {
		try {
			return Files.readAllLines(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return List.of("(could not read " + this.log + ": " + ex + ")");
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Found no free port on " + HOST, ex);
		}
	}

	@Override
	public String toString() {
		return this.name + "  " + uri("") + "  pid " + pid();
	}

}
