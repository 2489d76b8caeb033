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
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node started by the demo ends when the demo's process ends, even one killed with
 * SIGKILL (which runs no shutdown hook), and takes the demo's embedded Redis with it.
 */
class NodeParentWatchIntegrationTests {

	@Test
	void nodeExitsAndShutsDownRedisWhenItsParentDies(@TempDir Path directory) throws Exception {
		Path log = directory.resolve("node.log");
		Process parent = new ProcessBuilder("sleep", "120").start();
		Process node = null;
		try (RedisServer redis = RedisServer.start()) {
			List<String> command = nodeCommand().commandLine(List.of("--server.port=0", "--sample.node=orphan",
					"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
					"--demo.parent-pid=" + parent.pid(), "--demo.shutdown-redis-with-parent=true"));
			node = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(Redirect.to(log.toFile()))
				.start();
			awaitLogLine(log, "Started DemoNode", Duration.ofSeconds(60), node);

			parent.destroyForcibly().waitFor();

			assertThat(node.waitFor(20, TimeUnit.SECONDS)).as("node exited").isTrue();
			assertThat(read(log)).contains("Parent process " + parent.pid() + " has ended: stopping this node");
			awaitStopped(redis, Duration.ofSeconds(10));
			assertThat(redis.isRunning()).as("redis-server running").isFalse();
		}
		finally {
			parent.destroyForcibly();
			if (node != null) {
				node.destroyForcibly().waitFor();
			}
		}
	}

	private static void awaitLogLine(Path log, String text, Duration timeout, Process process) throws Exception {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!read(log).contains(text)) {
			assertThat(process.isAlive()).as("node alive; its log:%n%s", read(log)).isTrue();
			assertThat(System.nanoTime() - deadline).as("node started in time; its log:%n%s", read(log)).isNegative();
			Thread.sleep(100);
		}
	}

	private static void awaitStopped(RedisServer redis, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (redis.isRunning() && System.nanoTime() - deadline < 0) {
			Thread.sleep(100);
		}
	}

	private static String read(Path log) throws IOException {
		return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
	}

	private static NodeCommand nodeCommand() {
		String jar = System.getProperty("demo.jar");
		return (jar != null) ? NodeCommand.jar(Path.of(jar)) : NodeCommand.current();
	}

}
