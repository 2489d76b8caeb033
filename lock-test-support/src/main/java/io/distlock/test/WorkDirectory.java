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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The temporary working directory of one server, holding anything it writes and the log
 * of its output; deleted on close.
 */
final class WorkDirectory implements AutoCloseable {

	private final Path path;

	private WorkDirectory(Path path) {
		this.path = path;
	}

	static WorkDirectory create() {
		try {
			WorkDirectory directory = new WorkDirectory(Files.createTempDirectory("distlock-redis-"));
			ShutdownCleanup.track(directory);
			return directory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a working directory for redis-server", ex);
		}
	}

	Path path() {
		return this.path;
	}

	Path logFile() {
		return this.path.resolve("redis.log");
	}

	long logSize() {
		try {
			return Files.exists(logFile()) ? Files.size(logFile()) : 0;
		}
		catch (IOException ex) {
			return 0;
		}
	}

	String readLog(long offset) {
		if (!Files.exists(logFile())) {
			return "";
		}
		try (InputStream log = Files.newInputStream(logFile())) {
			log.skipNBytes(Math.min(offset, Files.size(logFile())));
			return new String(log.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(could not read " + logFile() + ": " + ex + ")";
		}
	}

	@Override
	public void close() {
		ShutdownCleanup.untrack(this);
		if (!Files.exists(this.path)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(this.path)) {
			paths.sorted(Comparator.reverseOrder()).forEach(WorkDirectory::deleteQuietly);
		}
		catch (IOException ex) {
			// Left for the operating system's temp cleaning; failing a test over it
			// would hide the real outcome.
		}
	}

	private static void deleteQuietly(Path path) {
		try {
			Files.deleteIfExists(path);
		}
		catch (IOException ex) {
			// See close().
		}
	}

}
