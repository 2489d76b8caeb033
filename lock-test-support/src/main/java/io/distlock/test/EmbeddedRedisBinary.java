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
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * The {@code redis-server} binary shipped as a resource of
 * {@code com.github.codemonstur:embedded-redis}, extracted to a file once per version.
 */
final class EmbeddedRedisBinary {

	private EmbeddedRedisBinary() {
	}

	static Path extract() {
		String resourceName = resourceName(System.getProperty("os.name"), System.getProperty("os.arch"));
		return extract(resourceName, Path.of(System.getProperty("java.io.tmpdir")));
	}

	static String resourceName(String osName, String osArch) {
		String os = osName.toLowerCase(Locale.ROOT);
		String arch = osArch.toLowerCase(Locale.ROOT);
		boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
		boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
		boolean mac = os.contains("mac") || os.contains("darwin");
		if (os.contains("linux") && amd64) {
			return "redis-server-6.2.6-v5-linux-amd64";
		}
		if (os.contains("linux") && arm64) {
			return "redis-server-6.2.7-linux-arm64";
		}
		if (mac && amd64) {
			return "redis-server-6.2.6-v5-darwin-amd64";
		}
		if (mac && arm64) {
			return "redis-server-6.2.6-v5-darwin-arm64";
		}
		throw new IllegalStateException("No redis-server is embedded for " + osName + "/" + osArch + "; set "
				+ HarnessSetting.REDIS_SERVER.describe() + " to the path of a redis-server binary");
	}

	static Path extract(String resourceName, Path tempRoot) {
		URL resource = EmbeddedRedisBinary.class.getClassLoader().getResource(resourceName);
		if (resource == null) {
			throw new IllegalStateException(
					resourceName + " is not on the class path: add com.github.codemonstur:embedded-redis or set "
							+ HarnessSetting.REDIS_SERVER.describe());
		}
		// The folder is named after the resource, so each binary version gets its own.
		Path folder = tempRoot.resolve("distlock-redis-" + System.getProperty("user.name")).resolve(resourceName);
		Path target = folder.resolve("redis-server");
		try {
			if (isComplete(target, size(resource))) {
				return target;
			}
			Files.createDirectories(folder);
			// Parallel JVMs each write their own temporary file and then rename it into
			// place, so none ever sees or runs a half-written binary.
			Path partial = Files.createTempFile(folder, "redis-server-", ".partial");
			try {
				try (InputStream content = resource.openStream()) {
					Files.copy(content, partial, StandardCopyOption.REPLACE_EXISTING);
				}
				makeExecutable(partial);
				Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
			}
			finally {
				Files.deleteIfExists(partial);
			}
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not extract " + resourceName + " to " + folder, ex);
		}
	}

	private static boolean isComplete(Path target, long size) throws IOException {
		return Files.isRegularFile(target) && Files.size(target) == size && Files.isExecutable(target);
	}

	private static long size(URL resource) throws IOException {
		URLConnection connection = resource.openConnection();
		connection.setUseCaches(false);
		long size = connection.getContentLengthLong();
		if (size >= 0) {
			return size;
		}
		try (InputStream content = connection.getInputStream()) {
			return content.transferTo(OutputStream.nullOutputStream());
		}
	}

	private static void makeExecutable(Path path) throws IOException {
		try {
			Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
		}
		catch (UnsupportedOperationException ex) {
			path.toFile().setExecutable(true);
		}
	}

}
