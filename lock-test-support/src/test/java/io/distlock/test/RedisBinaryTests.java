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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

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
