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

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisStartupException}.
 */
class RedisStartupExceptionTests {

	@ParameterizedTest
	@ValueSource(strings = {
			// Redis 6.2 (glibc)
			"# Could not create server TCP listening socket 127.0.0.1:21000: bind: Address already in use",
			// Redis 7.0.15 of org.signal:embedded-redis (musl), client and cluster bus
			// port
			"# Warning: Could not create server TCP listening socket 127.0.0.1:21000: bind: Address in use",
			"# Warning: Could not create server TCP listening socket 127.0.0.1:31000: bind: Address in use\n"
					+ "# Failed listening on port 31000 (cluster), aborting." })
	void recognizesAPortInUseAsEveryEmbeddedVersionReportsIt(String output) {
		// when
		RedisStartupException exception = new RedisStartupException("redis-server exited with code 1", output);

		// then
		assertThat(exception.isPortInUse()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "# Fatal error loading the DB: Permission denied. Exiting." })
	void doesNotMistakeOtherFailuresForAPortInUse(String output) {
		// when
		RedisStartupException exception = new RedisStartupException("redis-server exited with code 1", output);

		// then
		assertThat(exception.isPortInUse()).isFalse();
	}

}
