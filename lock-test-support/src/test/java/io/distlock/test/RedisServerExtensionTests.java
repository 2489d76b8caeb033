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

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Tests for {@link RedisServerExtension}, running sample test classes with the JUnit
 * Platform test kit.
 */
class RedisServerExtensionTests {

	@Test
	void closesServersAfterAllTestsEvenWhenOneFails() {
		// given
		LifecycleSample.pids.clear();

		// when
		EngineExecutionResults results = run(LifecycleSample.class);

		// then
		assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
		assertThat(results.testEvents().failed().count()).isEqualTo(1);
		assertThat(LifecycleSample.pids).hasSize(4).doesNotContain(-1L).noneMatch(RedisServerExtensionTests::isAlive);
	}

	@Test
	void flushesBeforeEachTest() {
		// given
		FlushSample.seen.clear();

		// when
		EngineExecutionResults results = run(FlushSample.class);

		// then
		assertThat(results.testEvents().failed().count()).isZero();
		assertThat(FlushSample.seen).containsExactly((Object) null);
	}

	@Test
	void keepsDataWhenFlushIsTurnedOff() {
		// given
		NoFlushSample.seen.clear();

		// when
		EngineExecutionResults results = run(NoFlushSample.class);

		// then
		assertThat(results.testEvents().failed().count()).isZero();
		assertThat(NoFlushSample.seen).containsExactly("value");
	}

	@Test
	void bringsBackServersThatATestKilledOrPaused() {
		// given
		FaultSample.replies.clear();

		// when
		EngineExecutionResults results = run(FaultSample.class);

		// then
		assertThat(results.testEvents().failed().count()).isZero();
		assertThat(FaultSample.replies).containsExactly("PONG", "PONG", "PONG");
	}

	@Test
	void nestedClassesShareTheOuterServers() {
		// given
		NestedSample.ports.clear();

		// when
		EngineExecutionResults results = run(NestedSample.class);

		// then
		assertThat(results.testEvents().succeeded().count()).isEqualTo(2);
		assertThat(NestedSample.ports).hasSize(2).containsOnly(NestedSample.ports.get(0));
	}

	private static EngineExecutionResults run(Class<?> testClass) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute();
	}

	private static boolean isAlive(long pid) {
		return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
	}

	@TestMethodOrder(MethodOrderer.MethodName.class)
	static class LifecycleSample {

		@RegisterExtension
		static final RedisServerExtension redis = RedisServerExtension.servers(2);

		static final List<Long> pids = new ArrayList<>();

		@Test
		void first() {
			record();
		}

		@Test
		void second() {
			record();
			throw new AssertionError("failing on purpose");
		}

		private static void record() {
			for (int i = 0; i < 2; i++) {
				pids.add(redis.server(i).pid());
			}
		}

	}

	@TestMethodOrder(MethodOrderer.MethodName.class)
	static class FlushSample {

		@RegisterExtension
		static final RedisServerExtension redis = RedisServerExtension.servers(1);

		static final List<Object> seen = new ArrayList<>();

		@Test
		void first() {
			redis.endpoint().command("SET", "key", "value");
		}

		@Test
		void second() {
			seen.add(redis.endpoint().command("GET", "key"));
		}

	}

	@TestMethodOrder(MethodOrderer.MethodName.class)
	static class NoFlushSample {

		@RegisterExtension
		static final RedisServerExtension redis = RedisServerExtension.servers(1).flushBeforeEach(false);

		static final List<Object> seen = new ArrayList<>();

		@Test
		void first() {
			redis.endpoint().command("SET", "key", "value");
		}

		@Test
		void second() {
			seen.add(redis.endpoint().command("GET", "key"));
		}

	}

	@TestMethodOrder(MethodOrderer.MethodName.class)
	static class FaultSample {

		@RegisterExtension
		static final RedisServerExtension redis = RedisServerExtension.servers(3);

		static final List<Object> replies = new ArrayList<>();

		@Test
		void first() {
			redis.endpoint(0).kill();
			redis.endpoint(1).pause();
			redis.endpoint(2).stop();
		}

		@Test
		void second() {
			for (RedisEndpoint endpoint : redis.endpoints()) {
				replies.add(endpoint.command("PING"));
			}
		}

	}

	static class NestedSample {

		@RegisterExtension
		static final RedisServerExtension redis = RedisServerExtension.servers(1);

		static final List<Integer> ports = new ArrayList<>();

		@Test
		void outer() {
			ports.add(redis.endpoint().port());
		}

		@Nested
		class Inner {

			@Test
			void inner() {
				ports.add(redis.endpoint().port());
			}

		}

	}

}
