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

package io.distlock.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link RedlockNodes}: a node URL that is not valid fails without showing its
 * credentials, in any shape they were written; closing the nodes ends in a bounded time.
 */
class RedlockNodesTests {

	// Never connected to: every list below fails validation first.
	private static final String OTHER_NODE = "redis://127.0.0.1:1";

	private final List<String> logged = new ArrayList<>();

	private final Logger rootLogger = Logger.getLogger("");

	private final Handler capture = new Handler() {

		@Override
		public void publish(LogRecord record) {
			RedlockNodesTests.this.logged.add(record.getLoggerName() + " " + record.getMessage() + " "
					+ ((record.getThrown() != null) ? record.getThrown() : ""));
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() {
		}

	};

	@BeforeEach
	void captureLogging() {
		this.capture.setLevel(Level.ALL);
		this.rootLogger.addHandler(this.capture);
	}

	@AfterEach
	void stopCapturingLogging() {
		this.rootLogger.removeHandler(this.capture);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badUrls")
	void invalidUrlFailsWithoutShowingItsCredentials(String shape, List<String> urls, List<String> secrets) {
		assertThatIllegalArgumentException().isThrownBy(() -> RedlockNodes.connect(urls, Duration.ofMillis(200)))
			.withMessageContaining("distlock.redlock.nodes[")
			.withMessageContaining("is not a valid Redis URL")
			.satisfies((ex) -> {
				for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
					assertThat(cause.getMessage()).doesNotContain(secrets);
					for (Throwable suppressed : cause.getSuppressed()) {
						assertThat(suppressed.getMessage()).doesNotContain(secrets);
					}
				}
			});
		assertThat(this.logged).noneMatch((line) -> secrets.stream().anyMatch(line::contains));
	}

	@Test
	void invalidUrlIsNamedByItsIndexWithWhatIsWrong() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedlockNodes.connect(List.of(OTHER_NODE, OTHER_NODE, "redis:/alice-user:pw@h"),
					Duration.ofMillis(200)))
			.withMessageStartingWith("distlock.redlock.nodes[2] (not shown) is not a valid Redis URL: "
					+ "it does not start with redis:// or rediss://. Expected redis://[[user]:password@]host");
	}

	@Test
	void invalidUrlWithARedisSchemeShowsTheSchemeAlone() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedlockNodes.connect(List.of("redis://alice-user:pw@h:notaport", OTHER_NODE, OTHER_NODE),
					Duration.ofMillis(200)))
			.withMessageStartingWith("distlock.redlock.nodes[0] (redis://..., the rest not shown) is not a valid "
					+ "Redis URL: it names no host, or its port is not a number");
	}

	// Lettuce's client shutdown waits without a bound, and has been seen never to end
	// (lettuce#2278): an application context holding the nodes then never closes.
	@Test
	void closeEndsWithinItsBoundWhenANodesShutdownNeverEnds() throws Exception {
		CountDownLatch never = new CountDownLatch(1);
		LettuceConnectionFactory hanging = new LettuceConnectionFactory() {

			@Override
			public void destroy() {
				try {
					never.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}

		};
		AtomicBoolean otherDestroyed = new AtomicBoolean();
		LettuceConnectionFactory other = new LettuceConnectionFactory() {

			@Override
			public void destroy() {
				otherDestroyed.set(true);
			}

		};
		RedlockNodes nodes = new RedlockNodes(List.of(hanging, other), Duration.ofMillis(200), Duration.ofMillis(300));
		try {
			assertTimeoutPreemptively(Duration.ofSeconds(30), nodes::close);
			assertThat(otherDestroyed).isTrue();
			assertThat(this.logged)
				.anyMatch((line) -> line.contains("Redlock node 0") && line.contains("did not shut down within"));
		}
		finally {
			never.countDown();
		}
	}

	static Stream<Arguments> badUrls() {
		List<String> secrets = List.of("alice-user", "s3cr3t-pw");
		return Stream.of(shape("no scheme, no user", ":s3cr3t-pw@127.0.0.1:6379", secrets),
				shape("no scheme", "alice-user:s3cr3t-pw@127.0.0.1:6379", secrets),
				shape("one slash", "redis:/alice-user:s3cr3t-pw@127.0.0.1", secrets),
				shape("no slash", "redis:alice-user:s3cr3t-pw@127.0.0.1", secrets),
				shape("port not a number", "redis://alice-user:s3cr3t-pw@127.0.0.1:notaport", secrets),
				shape("no host", "redis://alice-user:s3cr3t-pw@", secrets),
				shape("database not a number", "rediss://alice-user:s3cr3t-pw@127.0.0.1:6379/notadb", secrets),
				shape("other scheme", "http://alice-user:s3cr3t-pw@127.0.0.1", secrets),
				shape("sentinel scheme", "redis-sentinel://alice-user:s3cr3t-pw@127.0.0.1:26379#master", secrets),
				shape("unencoded '#' in the password", "redis://alice-user:s3cr3t#hash-part@127.0.0.1:6379",
						List.of("alice-user", "s3cr3t", "hash-part")),
				shape("unencoded '/' in the password", "redis://alice-user:s3cr3t/slash-part@127.0.0.1:6379",
						List.of("alice-user", "s3cr3t", "slash-part")),
				shape("bad escape in the password", "redis://alice-user:s3cr3t%zz@127.0.0.1",
						List.of("alice-user", "s3cr3t")),
				// A comma in the password splits the comma-separated property in two.
				Arguments.of("password with a comma",
						List.of("redis://alice-user:s3cr3t", "comma-part@127.0.0.1:6379", OTHER_NODE, OTHER_NODE),
						List.of("alice-user", "s3cr3t", "comma-part")),
				Arguments.of("password with a comma, first half a valid URL",
						List.of("redis://alice-user:6123", "comma-part@127.0.0.1:6379", OTHER_NODE, OTHER_NODE),
						List.of("alice-user", "6123", "comma-part")));
	}

	private static Arguments shape(String shape, String url, List<String> secrets) {
		return Arguments.of(shape, List.of(url, OTHER_NODE, OTHER_NODE), secrets);
	}

}
