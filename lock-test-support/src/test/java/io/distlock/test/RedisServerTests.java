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
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisServer}.
 */
class RedisServerTests {

	@Test
	void startsOnLoopbackAndAnswersPing() {
		// given
		try (RedisServer server = RedisServer.start()) {
			// when
			Object reply = server.command("PING");

			// then
			assertThat(reply).isEqualTo("PONG");
			assertThat(server.host()).isEqualTo("127.0.0.1");
			assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
			assertThat(server.command("CONFIG", "GET", "bind")).isEqualTo(List.of("bind", "127.0.0.1"));
		}
	}

	@Test
	void persistsNothingAndWorksInItsOwnTemporaryDirectory() {
		// given
		try (RedisServer server = RedisServer.start()) {
			// when
			Object save = server.command("CONFIG", "GET", "save");
			Object appendOnly = server.command("CONFIG", "GET", "appendonly");
			Path directory = workingDirectory(server);

			// then
			assertThat(save).isEqualTo(List.of("save", ""));
			assertThat(appendOnly).isEqualTo(List.of("appendonly", "no"));
			assertThat(directory.getFileName().toString()).startsWith("distlock-redis-");
			assertThat(directory).isNotEqualTo(Path.of("").toAbsolutePath());
		}
	}

	@Test
	void killThenRestartKeepsPortAndLosesData() {
		// given
		try (RedisServer server = RedisServer.start()) {
			server.command("SET", "key", "value");
			int port = server.port();
			long pid = server.pid();

			// when
			server.kill();
			boolean runningAfterKill = server.isRunning();
			server.restart();

			// then
			assertThat(runningAfterKill).isFalse();
			assertThat(isAlive(pid)).isFalse();
			assertThat(server.port()).isEqualTo(port);
			assertThat(server.pid()).isNotEqualTo(pid);
			assertThat(server.command("GET", "key")).isNull();
		}
	}

	@Test
	void stopIsGraceful() {
		// given
		try (RedisServer server = RedisServer.start()) {
			long pid = server.pid();

			// when
			server.stop();

			// then
			assertThat(server.isRunning()).isFalse();
			assertThat(isAlive(pid)).isFalse();
			assertThat(server.output()).contains("ready to exit");
		}
	}

	@Test
	void killGivesServerNoChanceToShutDown() {
		// given
		try (RedisServer server = RedisServer.start()) {
			// when
			server.kill();

			// then
			assertThat(server.output()).doesNotContain("ready to exit");
		}
	}

	@Test
	void commandFailsWhileServerIsDown() {
		// given
		try (RedisServer server = RedisServer.start()) {
			// when
			server.kill();

			// then
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> server.command("PING"));
		}
	}

	@Test
	void restartOfRunningServerStopsItFirst() {
		// given
		try (RedisServer server = RedisServer.start()) {
			server.command("SET", "key", "value");
			long pid = server.pid();

			// when
			server.restart();

			// then
			assertThat(server.pid()).isNotEqualTo(pid);
			assertThat(server.command("GET", "key")).isNull();
		}
	}

	@Test
	void pauseMakesServerUnresponsiveUntilResumed() {
		// given
		try (RedisServer server = RedisServer.start()) {
			server.command("SET", "key", "value");

			// when
			server.pause();

			// then
			assertThat(server.isPaused()).isTrue();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> pingWithin(server, 200))
				.withCauseInstanceOf(SocketTimeoutException.class);
			server.resume();
			assertThat(server.isPaused()).isFalse();
			assertThat(server.command("GET", "key")).isEqualTo("value");
		}
	}

	@Test
	void pauseOfStoppedServerIsRejected() {
		// given
		try (RedisServer server = RedisServer.start()) {
			server.stop();

			// when, then
			assertThatIllegalStateException().isThrownBy(server::pause).withMessageContaining("not running");
		}
	}

	@Test
	void debugSleepBlocksServerWithoutBlockingCaller() {
		// given
		try (RedisServer server = RedisServer.start()) {
			long start = System.nanoTime();

			// when
			server.debugSleep(Duration.ofMillis(800));
			Duration callerBlocked = Duration.ofNanos(System.nanoTime() - start);

			// then
			assertThat(callerBlocked).isLessThan(Duration.ofMillis(500));
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> pingWithin(server, 200))
				.withCauseInstanceOf(SocketTimeoutException.class);
			assertThat(server.command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void ensureRunningRestartsKilledServer() {
		// given
		try (RedisServer server = RedisServer.start()) {
			server.kill();

			// when
			server.ensureRunning();

			// then
			assertThat(server.command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void ensureRunningResumesPausedServer() {
		// given
		try (RedisServer server = RedisServer.start()) {
			long pid = server.pid();
			server.pause();

			// when
			server.ensureRunning();

			// then
			assertThat(server.isPaused()).isFalse();
			assertThat(server.pid()).isEqualTo(pid);
			assertThat(server.command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void closeLeavesNoProcessAndNoDirectory() {
		// given
		RedisServer server = RedisServer.start();
		long pid = server.pid();
		Path directory = workingDirectory(server);

		// when
		server.close();

		// then
		assertThat(isAlive(pid)).isFalse();
		assertThat(server.isRunning()).isFalse();
		assertThat(directory).doesNotExist();
	}

	@Test
	void closeKillsPausedServer() {
		// given
		RedisServer server = RedisServer.start();
		long pid = server.pid();
		server.pause();

		// when
		server.close();

		// then
		assertThat(isAlive(pid)).isFalse();
	}

	@Test
	void requirePassServerNeedsAuth() {
		// given
		try (RedisServer server = RedisServer.start("--requirepass", "secret")) {
			// when, then
			assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> pingWithoutPassword(server))
				.withMessageStartingWith("NOAUTH");
			assertThat(server.password()).isEqualTo("secret");
		}
	}

	@Test
	void harnessAuthenticatesWithRequirePassPassword() {
		// given
		try (RedisServer server = RedisServer.start("--requirepass", "secret")) {
			// when
			Object reply = server.command("PING");

			// then
			assertThat(reply).isEqualTo("PONG");
		}
	}

	@Test
	void restartKeepsExtraArguments() {
		// given
		try (RedisServer server = RedisServer.start("--requirepass", "secret")) {
			server.kill();

			// when
			server.restart();

			// then
			assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> pingWithoutPassword(server))
				.withMessageStartingWith("NOAUTH");
			assertThat(server.command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void failedStartShowsServerOutput() {
		// when, then
		assertThatExceptionOfType(RedisStartupException.class)
			.isThrownBy(() -> RedisServer.start("--no-such-directive", "x"))
			.withMessageContaining("exited with code")
			.withMessageContaining("no-such-directive")
			.satisfies((ex) -> assertThat(ex.isPortInUse()).isFalse());
	}

	private static Path workingDirectory(RedisServer server) {
		List<?> reply = (List<?>) server.command("CONFIG", "GET", "dir");
		return Path.of((String) reply.get(1));
	}

	private static void pingWithin(RedisEndpoint endpoint, long millis) {
		try (RespConnection connection = endpoint.connect(Duration.ofMillis(millis))) {
			connection.command("PING");
		}
	}

	private static void pingWithoutPassword(RedisEndpoint endpoint) {
		try (RespConnection connection = RespConnection.open(endpoint.host(), endpoint.port(), null,
				RespConnection.DEFAULT_TIMEOUT)) {
			connection.command("PING");
		}
	}

	private static boolean isAlive(long pid) {
		return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
	}

}
