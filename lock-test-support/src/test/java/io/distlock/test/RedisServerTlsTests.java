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

import java.io.UncheckedIOException;
import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link RedisServer#startTls(String...)}, {@link TestCertificates} and TLS in
 * {@link RespConnection} and {@link RedisConnections}.
 */
class RedisServerTlsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	@BeforeAll
	static void requireTls() {
		assumeTrue(RedisServer.isTlsSupported(),
				() -> RedisBinary.resolve().path() + " was built without TLS; TLS tests need e.g. Redis 7.0");
	}

	@Test
	void tlsServerAnswersOverTlsAndRefusesPlainText() {
		// given
		try (RedisServer server = RedisServer.startTls()) {
			// when
			Object reply = server.command("PING");

			// then
			assertThat(reply).isEqualTo("PONG");
			assertThat(server.isTls()).isTrue();
			assertThat(server.uri()).isEqualTo("rediss://127.0.0.1:" + server.port());
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> {
				try (RespConnection plain = RespConnection.open(server.host(), server.port(), null, TIMEOUT)) {
					plain.command("PING");
				}
			});
		}
	}

	@Test
	void tlsClientTrustingTheTestCaOnlyConnects() {
		// given
		try (RedisServer server = RedisServer.startTls()) {
			// when
			try (RespConnection connection = RespConnection.open("127.0.0.1", server.port(), null, TIMEOUT,
					TestCertificates.sslContext(false))) {
				// then
				assertThat(connection.command("PING")).isEqualTo("PONG");
			}
		}
	}

	@Test
	void lettuceConnectionFactoryRunsCommandsOverTls() {
		// given
		try (RedisServer server = RedisServer.startTls("--requirepass", "secret")) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server);
			try (RedisConnection connection = factory.getConnection()) {
				// when
				connection.stringCommands().set(bytes("lock:a"), bytes("token"));

				// then
				assertThat(connection.stringCommands().get(bytes("lock:a"))).isEqualTo(bytes("token"));
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void mutualTlsAcceptsTheClientCertificateAndRefusesClientsWithout() {
		// given
		try (RedisServer server = RedisServer.startTls("--tls-auth-clients", "yes")) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server);
			try (RedisConnection connection = factory.getConnection()) {
				// when
				connection.stringCommands().set(bytes("key"), bytes("value"));

				// then
				assertThat(server.command("GET", "key")).isEqualTo("value");
				assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> {
					try (RespConnection anonymous = RespConnection.open("127.0.0.1", server.port(), null, TIMEOUT,
							TestCertificates.sslContext(false))) {
						anonymous.command("PING");
					}
				});
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void replicaOfTlsPrimaryReplicatesOverTls() {
		// given
		try (RedisServer primary = RedisServer.startTls("--tls-auth-clients", "yes");
				RedisServer replica = RedisServer.startReplicaOf(primary)) {
			// when
			primary.command("SET", "key", "value");
			primary.awaitReplicasInSync(1);

			// then
			assertThat(replica.isTls()).isTrue();
			assertThat(replica.command("GET", "key")).isEqualTo("value");
		}
	}

	@Test
	void certificatesAreOnTheClassPathForSpringBootPemBundles() {
		// when
		ClassLoader loader = getClass().getClassLoader();

		// then
		assertThat(loader.getResource(TestCertificates.CA_CERTIFICATE)).isNotNull();
		assertThat(loader.getResource(TestCertificates.SERVER_CERTIFICATE)).isNotNull();
		assertThat(loader.getResource(TestCertificates.SERVER_KEY)).isNotNull();
		assertThat(loader.getResource(TestCertificates.CLIENT_CERTIFICATE)).isNotNull();
		assertThat(loader.getResource(TestCertificates.CLIENT_KEY)).isNotNull();
		assertThat(TestCertificates.caCertificateFile()).content().startsWith("-----BEGIN CERTIFICATE-----");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

}
