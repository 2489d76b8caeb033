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
import java.util.List;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.TestAbortedException;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Tests for {@link LockStoreContractTests}, running it over a store with no capability
 * beyond {@link LockClient} with the JUnit Platform test kit.
 */
class LockStoreContractTestsTests {

	@Test
	void suitesOfTheCapabilitiesAStoreLacksAreSkippedNotFailed() {
		// when
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(ExclusiveStoreSample.class))
			.execute();

		// then
		Events tests = results.testEvents();
		assertThat(tests.failed().map(LockStoreContractTestsTests::describe)).as("failed tests").isEmpty();
		for (String suite : List.of("Fair", "ReadWrite", "Permits", "Inspection")) {
			assertThat(tests.started().filter((event) -> isIn(event, suite)).count()).as(suite).isPositive();
			assertThat(tests.succeeded().filter((event) -> isIn(event, suite)).count()).as(suite).isZero();
			assertThat(tests.aborted().filter((event) -> isIn(event, suite)).map(LockStoreContractTestsTests::cause))
				.as(suite)
				.allSatisfy((cause) -> assertThat(cause).isInstanceOf(TestAbortedException.class)
					.hasMessageContaining("is not a"));
		}
		assertThat(tests.succeeded().filter((event) -> isIn(event, "Exclusive")).count()).as("Exclusive").isPositive();
	}

	private static boolean isIn(Event event, String suite) {
		return event.getTestDescriptor()
			.getUniqueId()
			.getSegments()
			.stream()
			.anyMatch((segment) -> segment.getType().equals("nested-class") && segment.getValue().equals(suite));
	}

	private static String describe(Event event) {
		return event.getTestDescriptor().getUniqueId().getLastSegment().getValue() + " in "
				+ event.getTestDescriptor().getUniqueId().removeLastSegment().getLastSegment().getValue() + ": "
				+ cause(event).toString().lines().findFirst().orElse("");
	}

	private static Throwable cause(Event event) {
		return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow();
	}

	/**
	 * A store with no capability beyond {@link LockClient}: a real Redis store, seen
	 * through the store SPI alone.
	 */
	static class ExclusiveStoreSample extends LockStoreContractTests {

		@RegisterExtension
		static final RedisServerExtension redis = RedisServerExtension.servers(1);

		private LettuceConnectionFactory connectionFactory;

		private LockClient client;

		@BeforeEach
		void connect() {
			this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
			this.client = new ExclusiveLockClient(new RedisLockClient(this.connectionFactory));
		}

		@AfterEach
		void disconnect() {
			RedisConnections.destroy(this.connectionFactory);
		}

		@Override
		protected LockClient client() {
			return this.client;
		}

	}

	/**
	 * The store SPI of a {@link RedisLockClient} without any of its capabilities.
	 */
	private record ExclusiveLockClient(LockClient store) implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			return this.store.tryAcquire(key, ownerToken, ttl);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return this.store.release(key, ownerToken);
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			return this.store.renew(key, ownerToken, ttl);
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return this.store.isHeld(key, ownerToken);
		}

	}

}
