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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link EmbeddedRedisBinary}.
 */
class EmbeddedRedisBinaryTests {

	private static final String RESOURCE = "redis-server-7.0.15-linux-amd64";

	@ParameterizedTest
	@CsvSource({ "7.0, Linux, amd64, redis-server-7.0.15-linux-amd64",
			"7.0, Linux, x86_64, redis-server-7.0.15-linux-amd64",
			"7.0, Linux, aarch64, redis-server-7.0.15-linux-arm64",
			"7.0, Mac OS X, x86_64, redis-server-7.0.15-darwin-amd64",
			"7.0, Mac OS X, aarch64, redis-server-7.0.15-darwin-arm64",
			"6.2, Linux, amd64, redis-server-6.2.6-v5-linux-amd64",
			"6.2, Linux, x86_64, redis-server-6.2.6-v5-linux-amd64",
			"6.2, Linux, aarch64, redis-server-6.2.7-linux-arm64",
			"6.2, Mac OS X, x86_64, redis-server-6.2.6-v5-darwin-amd64",
			"6.2, Mac OS X, aarch64, redis-server-6.2.6-v5-darwin-arm64" })
	void picksResourceByVersionOperatingSystemAndArchitecture(String version, String osName, String osArch,
			String expected) {
		// when
		String resourceName = EmbeddedRedisBinary.resourceName(version, osName, osArch);

		// then
		assertThat(resourceName).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "redis-server-7.0.15-linux-amd64", "redis-server-6.2.6-v5-linux-amd64" })
	void everyLinuxAmd64ResourceIsOnTheClassPath(String resourceName) {
		// when, then
		assertThat(EmbeddedRedisBinary.class.getClassLoader().getResource(resourceName)).isNotNull();
	}

	@Test
	void runsRedis7WhenNoVersionIsSet() {
		// when, then
		assertThat(EmbeddedRedisBinary.version(null)).isEqualTo("7.0");
	}

	@ParameterizedTest
	@ValueSource(strings = { "7.0", "6.2" })
	void acceptsEveryEmbeddedVersion(String version) {
		// when, then
		assertThat(EmbeddedRedisBinary.version(version)).isEqualTo(version);
	}

	@ParameterizedTest
	@ValueSource(strings = { "7", "7.2", "6.0", "latest" })
	void rejectsAnUnknownVersionNamingTheSettingAndTheChoices(String version) {
		// when, then
		assertThatIllegalStateException().isThrownBy(() -> EmbeddedRedisBinary.version(version))
			.withMessageContaining("DISTLOCK_REDIS_VERSION")
			.withMessageContaining("'" + version + "'")
			.withMessageContaining("7.0 and 6.2")
			.withMessageContaining("DISTLOCK_REDIS_SERVER");
	}

	@Test
	void unsupportedPlatformPointsToTheOverride() {
		// when, then
		assertThatIllegalStateException()
			.isThrownBy(() -> EmbeddedRedisBinary.resourceName("7.0", "Windows 11", "amd64"))
			.withMessageContaining("DISTLOCK_REDIS_SERVER");
	}

	@Test
	void extractsAnExecutableIntoAFolderPerVersion(@TempDir Path tempRoot) {
		// when
		Path binary = EmbeddedRedisBinary.extract(RESOURCE, tempRoot);

		// then
		assertThat(binary).isExecutable();
		assertThat(binary.getParent().getFileName()).hasToString(RESOURCE);
		assertThat(binary.getParent()).isDirectoryNotContaining("glob:**.partial");
	}

	@Test
	void reusesAnEarlierExtraction(@TempDir Path tempRoot) throws IOException {
		// given
		Path first = EmbeddedRedisBinary.extract(RESOURCE, tempRoot);
		FileTime written = FileTime.fromMillis(1_000_000);
		Files.setLastModifiedTime(first, written);

		// when
		Path second = EmbeddedRedisBinary.extract(RESOURCE, tempRoot);

		// then
		assertThat(second).isEqualTo(first);
		assertThat(Files.getLastModifiedTime(second)).isEqualTo(written);
	}

	@Test
	void replacesAnIncompleteExtraction(@TempDir Path tempRoot) throws IOException {
		// given
		Path binary = EmbeddedRedisBinary.extract(RESOURCE, tempRoot);
		long size = Files.size(binary);
		Files.writeString(binary, "truncated");

		// when
		EmbeddedRedisBinary.extract(RESOURCE, tempRoot);

		// then
		assertThat(binary).hasSize(size);
	}

}
