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

package io.distlock.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;

/**
 * A {@code redis-server} of another embedded version than the run's main one, started
 * through the test harness in a JVM of its own: the harness resolves one binary per JVM,
 * so a second version needs a second JVM. The server stops when its JVM's standard input
 * closes, which {@link #close()} does, and so does the end of {@link BenchmarkMain}'s
 * JVM.
 */
final class ForkedRedis implements AutoCloseable {

	private static final String READY = "REDIS ";

	private static final Duration STARTUP = Duration.ofSeconds(60);

	private final Process process;

	private final RedisAddress address;

	private ForkedRedis(Process process, RedisAddress address) {
		this.process = process;
		this.address = address;
	}

	/**
	 * Start a server of the given embedded version and wait until it answers.
	 * @param version the embedded version, such as {@code 7.0}
	 * @return the running server, to be closed
	 * @throws IOException if its JVM cannot be started or the server does not come up
	 */
	static ForkedRedis start(String version) throws IOException {
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
				"-Ddistlock.redis.version=" + version, "-cp", System.getProperty("java.class.path"),
				ForkedRedis.class.getName());
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		// Read on a thread of its own, so that a JVM that hangs cannot block the run, and
		// to the end, so that a full pipe cannot block the JVM.
		AtomicReference<String> address = new AtomicReference<>();
		CountDownLatch ready = new CountDownLatch(1);
		Thread reader = new Thread(() -> {
			try {
				for (String line = output.readLine(); line != null; line = output.readLine()) {
					if (line.startsWith(READY) && address.compareAndSet(null, line.substring(READY.length()).trim())) {
						ready.countDown();
					}
				}
			}
			catch (IOException ex) {
				// No address: reported below.
			}
			ready.countDown();
		}, "forked-redis-" + version);
		reader.setDaemon(true);
		reader.start();
		try {
			ready.await(STARTUP.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (address.get() == null) {
			process.destroyForcibly();
			throw new IOException("redis-server " + version + " did not start within " + STARTUP);
		}
		return new ForkedRedis(process, RedisAddress.parse(address.get()));
	}

	/**
	 * Return the server's address.
	 * @return the address
	 */
	RedisAddress address() {
		return this.address;
	}

	/**
	 * Delete every key of the server.
	 */
	void flushAll() {
		try (RespConnection connection = RespConnection.open(this.address.host(), this.address.port(), null,
				Duration.ofSeconds(10))) {
			connection.command("FLUSHALL");
		}
	}

	@Override
	public void close() {
		try {
			this.process.getOutputStream().close();
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (IOException ex) {
			this.process.destroyForcibly();
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Start the server, print its address, and stop it when standard input closes.
	 * @param args none
	 * @throws IOException if standard input cannot be read
	 */
	public static void main(String[] args) throws IOException {
		try (RedisServer server = RedisServer.start()) {
			System.out.println(READY + server.host() + ":" + server.port());
			System.out.flush();
			while (System.in.read() != -1) {
				// Nothing is sent; the end of the stream is the signal to stop.
			}
		}
		System.exit(0);
	}

}
