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

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for ACL users on a {@link RedisServer}: from {@code --user} arguments and from
 * {@link RedisServer#aclSetUser(String, String...)}.
 */
class RedisServerAclTests {

	@Test
	void userFromCommandLineMayRunOnlyWhatItsRulesAllow() {
		// given
		try (RedisServer server = RedisServer.start("--user", "alice", "on", ">secret", "~lock:*", "+get")) {
			server.command("SET", "lock:a", "token");
			server.command("SET", "other", "value");

			try (RespConnection alice = server.connect(RespConnection.DEFAULT_TIMEOUT)) {
				// when
				alice.command("AUTH", "alice", "secret");

				// then
				assertThat(alice.command("GET", "lock:a")).isEqualTo("token");
				assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> alice.command("GET", "other"))
					.withMessageContaining("NOPERM");
				assertThatExceptionOfType(RedisCommandException.class)
					.isThrownBy(() -> alice.command("SET", "lock:a", "x"))
					.withMessageContaining("NOPERM");
			}
		}
	}

	@Test
	void userFromAclSetUserMayRunOnlyWhatItsRulesAllow() {
		// given
		try (RedisServer server = RedisServer.start("--requirepass", "admin")) {
			server.aclSetUser("bob", "on", ">secret", "~lock:*", "+set", "+get");
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server, "bob", "secret");
			try (RedisConnection bob = factory.getConnection()) {
				// when
				bob.stringCommands().set("lock:a".getBytes(), "token".getBytes());

				// then
				assertThat(server.command("GET", "lock:a")).isEqualTo("token");
				assertThatThrownBy(() -> bob.stringCommands().set("other".getBytes(), "x".getBytes()))
					.hasStackTraceContaining("NOPERM");
				assertThatThrownBy(() -> bob.keyCommands().del("lock:a".getBytes())).hasStackTraceContaining("NOPERM");
			}
			finally {
				factory.destroy();
			}
		}
	}

}
