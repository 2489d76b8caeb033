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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The {@code redis-server} binary that the harness runs: the one named by
 * {@code DISTLOCK_REDIS_SERVER}, or else the embedded one of the version named by
 * {@code DISTLOCK_REDIS_VERSION} (7.0 unless set).
 */
final class RedisBinary {

	private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.");

	private static @Nullable RedisBinary resolved;

	private final Path path;

	private final int majorVersion;

	private RedisBinary(Path path, int majorVersion) {
		this.path = path;
		this.majorVersion = majorVersion;
	}

	static synchronized RedisBinary resolve() {
		RedisBinary binary = resolved;
		if (binary == null) {
			String configured = HarnessSetting.REDIS_SERVER.value();
			binary = of((configured != null) ? configured(configured) : EmbeddedRedisBinary.extract());
			resolved = binary;
		}
		return binary;
	}

	static RedisBinary of(Path path) {
		return new RedisBinary(path, majorVersion(path));
	}

	Path path() {
		return this.path;
	}

	int majorVersion() {
		return this.majorVersion;
	}

	static Path configured(String value) {
		Path path = Path.of(value);
		if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
			throw new IllegalStateException(HarnessSetting.REDIS_SERVER.describe() + " is set to " + value
					+ ", which is not an executable file");
		}
		return path;
	}

	private static int majorVersion(Path path) {
		String output = run(path, "--version");
		Matcher matcher = VERSION.matcher(output);
		if (!matcher.find()) {
			throw new IllegalStateException(path + " does not look like redis-server; '--version' printed: " + output);
		}
		return Integer.parseInt(matcher.group(1));
	}

	private static String run(Path path, String argument) {
		try {
			// Output goes to a file, not a pipe, so a binary that never exits cannot
			// block the read; it is killed after the timeout instead.
			Path output = Files.createTempFile("distlock-redis-version-", ".txt");
			try {
				Process process = new ProcessBuilder(path.toString(), argument).redirectErrorStream(true)
					.redirectOutput(output.toFile())
					.start();
				if (!process.waitFor(10, TimeUnit.SECONDS)) {
					process.destroyForcibly();
					throw new IllegalStateException(path + " " + argument + " did not exit within 10 seconds");
				}
				return Files.readString(output, StandardCharsets.UTF_8).trim();
			}
			finally {
				Files.deleteIfExists(output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + path, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + path, ex);
		}
	}

}
