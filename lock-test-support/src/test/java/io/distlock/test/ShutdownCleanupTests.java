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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ShutdownCleanup}.
 */
class ShutdownCleanupTests {

	private static final Pattern PID = Pattern.compile("pid=(\\d+)");

	@Test
	void killsServersLeftRunningWhenTheJvmExits(@TempDir Path directory) throws Exception {
		// given
		Path output = directory.resolve("probe.out");
		Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), OrphanProbe.class.getName())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();

		// when
		boolean exited = probe.waitFor(30, TimeUnit.SECONDS);

		// then
		assertThat(exited).isTrue();
		String printed = Files.readString(output);
		Matcher matcher = PID.matcher(printed);
		assertThat(matcher.find()).as(printed).isTrue();
		long pid = Long.parseLong(matcher.group(1));
		try {
			assertThat(awaitDeath(pid)).isTrue();
		}
		finally {
			ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
		}
	}

	private static boolean awaitDeath(long pid) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (System.nanoTime() < deadline) {
			if (ProcessHandle.of(pid).map((handle) -> !handle.isAlive()).orElse(true)) {
				return true;
			}
			Thread.sleep(20);
		}
		return false;
	}

}
