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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Tests for {@link RedisClusterExtension}, running a sample test class with the JUnit
 * Platform test kit.
 */
class RedisClusterExtensionTests {

	@Test
	void flushesBeforeEachTestBringsBackKilledNodesAndClosesTheClusterAfterAll() {
		// given
		LifecycleSample.pids.clear();
		LifecycleSample.seen.clear();

		// when
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(LifecycleSample.class))
			.execute();

		// then
		assertThat(results.testEvents().succeeded().count()).isEqualTo(2);
		assertThat(LifecycleSample.seen).containsExactly("value", null);
		assertThat(LifecycleSample.pids).hasSize(2)
			.noneMatch((pid) -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
	}

	@TestMethodOrder(MethodOrderer.MethodName.class)
	static class LifecycleSample {

		@RegisterExtension
		static final RedisClusterExtension redis = RedisClusterExtension.of(1, 1);

		static final List<Long> pids = new ArrayList<>();

		static final List<Object> seen = new ArrayList<>();

		@Test
		void first() {
			RedisServer primary = redis.cluster().primaries().get(0);
			primary.command("SET", "key", "value");
			seen.add(primary.command("GET", "key"));
			redis.cluster().replicasOf(primary).get(0).kill();
		}

		@Test
		void second() {
			RedisCluster cluster = redis.cluster();
			assertThat(cluster.nodes()).allMatch(RedisServer::isRunning);
			RedisServer primary = cluster.primaries().get(0);
			assertThat(cluster.replicasOf(primary)).hasSize(1);
			seen.add(primary.command("GET", "key"));
			cluster.nodes().forEach((node) -> pids.add(node.pid()));
		}

	}

}
