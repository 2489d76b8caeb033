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

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ExternalRedisEndpoint}.
 */
class ExternalRedisEndpointTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(1, "--requirepass", "secret");

	@Test
	void parsesHostPortAndPassword() {
		// when
		ExternalRedisEndpoint endpoint = ExternalRedisEndpoint.parse("redis://:secret@127.0.0.1:6380");

		// then
		assertThat(endpoint.host()).isEqualTo("127.0.0.1");
		assertThat(endpoint.port()).isEqualTo(6380);
		assertThat(endpoint.password()).isEqualTo("secret");
		assertThat(endpoint.uri()).isEqualTo("redis://127.0.0.1:6380");
	}

	@Test
	void defaultsToPort6379WithoutPassword() {
		// when
		ExternalRedisEndpoint endpoint = ExternalRedisEndpoint.parse("redis://localhost");

		// then
		assertThat(endpoint.port()).isEqualTo(6379);
		assertThat(endpoint.password()).isNull();
	}

	@Test
	void rejectsOtherSchemes() {
		// when, then
		assertThatIllegalArgumentException().isThrownBy(() -> ExternalRedisEndpoint.parse("rediss://127.0.0.1:6379"))
			.withMessageContaining("redis://127.0.0.1:6379");
	}

	@Test
	void rejectsDatabaseNumber() {
		// when, then
		assertThatIllegalArgumentException().isThrownBy(() -> ExternalRedisEndpoint.parse("redis://127.0.0.1:6379/2"))
			.withMessageContaining("Database");
	}

	@Test
	void sendsCommandsToTheServer() {
		// given
		ExternalRedisEndpoint endpoint = external();

		// when
		endpoint.command("SET", "key", "value");

		// then
		assertThat(redis.endpoint().command("GET", "key")).isEqualTo("value");
	}

	@Test
	void isNotControllable() {
		// when
		ExternalRedisEndpoint endpoint = external();

		// then
		assertThat(endpoint.isControllable()).isFalse();
	}

	@Test
	void faultMethodsAreUnsupported() {
		// given
		ExternalRedisEndpoint endpoint = external();

		// when, then
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(endpoint::kill)
			.withMessageContaining("isControllable()");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(endpoint::stop);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(endpoint::restart);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(endpoint::pause);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(endpoint::resume);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> endpoint.debugSleep(Duration.ofMillis(10)));
	}

	@Test
	void closeLeavesTheServerRunning() {
		// given
		ExternalRedisEndpoint endpoint = external();

		// when
		endpoint.close();

		// then
		assertThat(redis.endpoint().command("PING")).isEqualTo("PONG");
	}

	private static ExternalRedisEndpoint external() {
		return ExternalRedisEndpoint.parse("redis://:secret@127.0.0.1:" + redis.endpoint().port());
	}

}
