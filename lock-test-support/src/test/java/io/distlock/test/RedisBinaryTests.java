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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link RedisBinary}.
 */
class RedisBinaryTests {

	@Test
	void resolvesARunnableRedisServer() {
		// when
		RedisBinary binary = RedisBinary.resolve();

		// then
		assertThat(binary.path()).isExecutable();
		assertThat(binary.majorVersion()).isGreaterThanOrEqualTo(6);
	}

	@Test
	void runsTheSelectedEmbeddedVersion() {
		// given
		assumeTrue(HarnessSetting.REDIS_SERVER.value() == null, "an explicit binary wins over the version");
		String selected = EmbeddedRedisBinary.version(HarnessSetting.REDIS_VERSION.value());

		// when
		int majorVersion = RedisVersion.majorVersion();

		// then
		assertThat(majorVersion).isEqualTo(Integer.parseInt(selected.substring(0, selected.indexOf('.'))));
	}

	@ParameterizedTest
	@CsvSource({ "redis-server-7.0.15-linux-amd64, 7", "redis-server-6.2.6-v5-linux-amd64, 6" })
	void readsTheMajorVersionOfEachEmbeddedBinary(String resourceName, int expected, @TempDir Path tempRoot) {
		// given
		assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
				&& System.getProperty("os.arch").matches("amd64|x86_64"), "the resources are for linux-amd64");
		Path path = EmbeddedRedisBinary.extract(resourceName, tempRoot);

		// when
		RedisBinary binary = RedisBinary.of(path);

		// then
		assertThat(binary.majorVersion()).isEqualTo(expected);
	}

	@Test
	void rejectsABinaryThatIsNotRedisServer(@TempDir Path directory) throws IOException {
		// given
		Path script = directory.resolve("not-redis");
		Files.writeString(script, "#!/bin/sh\necho hello\n");
		Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));

		// when, then
		assertThatIllegalStateException().isThrownBy(() -> RedisBinary.of(script))
			.withMessageContaining("does not look like redis-server")
			.withMessageContaining("hello");
	}

	@Test
	void rejectsAConfiguredPathThatIsNotAnExecutableFile(@TempDir Path directory) {
		// when, then
		assertThatIllegalStateException()
			.isThrownBy(() -> RedisBinary.configured(directory.resolve("missing").toString()))
			.withMessageContaining("DISTLOCK_REDIS_SERVER");
	}

}
