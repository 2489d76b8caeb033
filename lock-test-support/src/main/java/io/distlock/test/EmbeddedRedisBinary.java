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
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The {@code redis-server} binary shipped as a resource of
 * {@code org.signal:embedded-redis} (Redis 7.0, the default) or
 * {@code com.github.codemonstur:embedded-redis} (Redis 6.2), chosen by
 * {@code DISTLOCK_REDIS_VERSION} and extracted to a file once per version.
 */
final class EmbeddedRedisBinary {

	/**
	 * The version used when {@code DISTLOCK_REDIS_VERSION} is not set.
	 */
	static final String DEFAULT_VERSION = "7.0";

	private static final List<String> VERSIONS = List.of("7.0", "6.2");

	private EmbeddedRedisBinary() {
	}

	static Path extract() {
		String resourceName = resourceName(version(HarnessSetting.REDIS_VERSION.value()), System.getProperty("os.name"),
				System.getProperty("os.arch"));
		return extract(resourceName, Path.of(System.getProperty("java.io.tmpdir")));
	}

	/**
	 * Return the embedded version to run for the given setting.
	 * @param setting the value of {@code DISTLOCK_REDIS_VERSION}, or {@code null} when it
	 * is not set
	 * @return {@code 7.0} or {@code 6.2}
	 * @throws IllegalStateException for any other value
	 */
	static String version(@Nullable String setting) {
		if (setting == null) {
			return DEFAULT_VERSION;
		}
		if (!VERSIONS.contains(setting)) {
			throw new IllegalStateException(HarnessSetting.REDIS_VERSION.describe() + " is set to '" + setting
					+ "', but the embedded redis-server versions are " + String.join(" and ", VERSIONS) + "; set "
					+ HarnessSetting.REDIS_SERVER.describe() + " to run another binary");
		}
		return setting;
	}

	static String resourceName(String version, String osName, String osArch) {
		String os = osName.toLowerCase(Locale.ROOT);
		String arch = osArch.toLowerCase(Locale.ROOT);
		boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
		boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
		boolean mac = os.contains("mac") || os.contains("darwin");
		String platform = null;
		if (os.contains("linux") && amd64) {
			platform = "linux-amd64";
		}
		else if (os.contains("linux") && arm64) {
			platform = "linux-arm64";
		}
		else if (mac && amd64) {
			platform = "darwin-amd64";
		}
		else if (mac && arm64) {
			platform = "darwin-arm64";
		}
		if (platform == null) {
			throw new IllegalStateException("No redis-server is embedded for " + osName + "/" + osArch + "; set "
					+ HarnessSetting.REDIS_SERVER.describe() + " to the path of a redis-server binary");
		}
		return switch (version(version)) {
			case "6.2" ->
				platform.equals("linux-arm64") ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-" + platform;
			default -> "redis-server-7.0.15-" + platform;
		};
	}

	static Path extract(String resourceName, Path tempRoot) {
		URL resource = EmbeddedRedisBinary.class.getClassLoader().getResource(resourceName);
		if (resource == null) {
			throw new IllegalStateException(resourceName + " is not on the class path: add " + artifact(resourceName)
					+ " or set " + HarnessSetting.REDIS_SERVER.describe());
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

	private static String artifact(String resourceName) {
		return resourceName.startsWith("redis-server-6.") ? "com.github.codemonstur:embedded-redis"
				: "org.signal:embedded-redis";
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
