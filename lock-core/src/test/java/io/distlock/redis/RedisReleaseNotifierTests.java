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

package io.distlock.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisReleaseNotifier} started while Redis is down: what its one
 * warning tells. Nothing listens on the port it connects to.
 */
class RedisReleaseNotifierTests {

	private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();

	private final Logger notifierLogger = Logger.getLogger(RedisReleaseNotifier.class.getName());

	private final Handler capture = new Handler() {

		@Override
		public void publish(LogRecord record) {
			if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
				RedisReleaseNotifierTests.this.warnings.add(record);
			}
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() {
		}

	};

	@BeforeEach
	void captureWarnings() {
		this.notifierLogger.addHandler(this.capture);
	}

	@AfterEach
	void stopCapturingWarnings() {
		this.notifierLogger.removeHandler(this.capture);
	}

	@Test
	void startWhileRedisIsDownWarnsOnceThatRedisAtHostAndPortIsUnreachableAndWhatThatMeansForLocks() throws Exception {
		int port = freePort();
		RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("127.0.0.1", port);
		standalone.setPassword(RedisPassword.of("s3cret-password"));
		LettuceConnectionFactory factory = new LettuceConnectionFactory(standalone,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(500)).build());
		factory.afterPropertiesSet();
		factory.start();
		LockWaiter waiter = new LockWaiter(Duration.ofMillis(10), Duration.ofMillis(400));
		RedisReleaseNotifier notifier = new RedisReleaseNotifier(factory, waiter);
		try {
			notifier.start();
			// Retried in the background, told once.
			Thread.sleep(500);
		}
		finally {
			notifier.close();
			factory.destroy();
		}
		assertThat(this.warnings).singleElement()
			.extracting(LogRecord::getMessage)
			.asString()
			.startsWith("Redis at 127.0.0.1:" + port + " is unreachable (")
			.contains("Until it is back, no lock can be taken: each attempt fails with a LockBackendException.",
					"are not woken when it is released, but try again after a backoff of up to 400ms",
					"the subscription to lock releases, retried in the background")
			.doesNotContain("s3cret-password");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
