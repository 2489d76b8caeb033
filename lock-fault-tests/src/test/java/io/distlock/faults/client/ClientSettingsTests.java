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

package io.distlock.faults.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientSettings}: the arguments a scenario passes to a client JVM and
 * the Spring Boot properties the client builds from them, for each topology.
 */
class ClientSettingsTests {

	@Test
	void singleNodeRoundTripsAndConnectsToThePort() {
		ClientSettings settings = settings(6390, List.of(), List.of(), "", List.of(), 0);
		assertThat(ClientSettings.parse(settings.toArguments().toArray(String[]::new))).isEqualTo(settings);
		Map<String, Object> properties = settings.springProperties();
		assertThat(properties).containsEntry("spring.data.redis.port", 6390)
			.doesNotContainKeys("spring.data.redis.cluster.nodes", "spring.data.redis.sentinel.master",
					"distlock.redlock.nodes", "distlock.replication.min-replicas");
	}

	@Test
	void clusterRoundTripsAndMapsToClusterProperties() {
		ClientSettings settings = settings(0, List.of(), List.of("127.0.0.1:7001", "127.0.0.1:7002"), "", List.of(), 1);
		assertThat(ClientSettings.parse(settings.toArguments().toArray(String[]::new))).isEqualTo(settings);
		Map<String, Object> properties = settings.springProperties();
		assertThat(properties).containsEntry("spring.data.redis.cluster.nodes", "127.0.0.1:7001,127.0.0.1:7002")
			.containsEntry("spring.data.redis.lettuce.cluster.refresh.adaptive", true)
			.containsEntry("spring.data.redis.lettuce.cluster.refresh.period", "1s")
			.containsEntry("distlock.replication.min-replicas", 1)
			.doesNotContainKeys("spring.data.redis.port", "spring.data.redis.sentinel.master");
	}

	@Test
	void sentinelRoundTripsAndMapsToSentinelProperties() {
		ClientSettings settings = settings(0, List.of(), List.of(), "distlock",
				List.of("127.0.0.1:26379", "127.0.0.1:26380"), 0);
		assertThat(ClientSettings.parse(settings.toArguments().toArray(String[]::new))).isEqualTo(settings);
		Map<String, Object> properties = settings.springProperties();
		assertThat(properties).containsEntry("spring.data.redis.sentinel.master", "distlock")
			.containsEntry("spring.data.redis.sentinel.nodes", "127.0.0.1:26379,127.0.0.1:26380")
			.doesNotContainKeys("spring.data.redis.port", "spring.data.redis.cluster.nodes",
					"distlock.replication.min-replicas");
	}

	@Test
	void redlockRoundTripsAndMapsToRedlockNodes() {
		ClientSettings settings = settings(0, List.of("redis://127.0.0.1:7001", "redis://127.0.0.1:7002"), List.of(),
				"", List.of(), 0);
		assertThat(ClientSettings.parse(settings.toArguments().toArray(String[]::new))).isEqualTo(settings);
		assertThat(settings.springProperties())
			.containsEntry("distlock.redlock.nodes", "redis://127.0.0.1:7001,redis://127.0.0.1:7002")
			.containsEntry("spring.data.redis.port", 6400);
	}

	@Test
	void workloadAndPermitsRoundTrip() {
		ClientSettings permits = withWorkload(settings(6390, List.of(), List.of(), "", List.of(), 0), Workload.PERMITS,
				3);
		assertThat(ClientSettings.parse(permits.toArguments().toArray(String[]::new))).isEqualTo(permits);
		ClientSettings multi = withWorkload(permits, Workload.MULTI, 1);
		assertThat(ClientSettings.parse(multi.toArguments().toArray(String[]::new))).isEqualTo(multi);
	}

	@Test
	void workloadIsExclusiveWhenNotGiven() {
		ClientSettings settings = settings(6390, List.of(), List.of(), "", List.of(), 0);
		String[] args = settings.toArguments()
			.stream()
			.filter((arg) -> !arg.startsWith("workload=") && !arg.startsWith("permits="))
			.toArray(String[]::new);
		assertThat(ClientSettings.parse(args)).isEqualTo(settings);
	}

	private static ClientSettings withWorkload(ClientSettings base, Workload workload, int permits) {
		return new ClientSettings(base.id(), base.seed(), base.storagePort(), base.redisPort(), base.redlockNodes(),
				base.clusterNodes(), base.sentinelMaster(), base.sentinelNodes(), base.minReplicas(), base.timeout(),
				base.threads(), base.keys(), base.ttl(), base.waitTime(), base.workMinMillis(), base.workMaxMillis(),
				base.thinkMaxMillis(), base.duration(), base.history(), workload, permits);
	}

	private static ClientSettings settings(int redisPort, List<String> redlockNodes, List<String> clusterNodes,
			String sentinelMaster, List<String> sentinelNodes, int minReplicas) {
		return new ClientSettings("c0", 7, 6400, redisPort, redlockNodes, clusterNodes, sentinelMaster, sentinelNodes,
				minReplicas, Duration.ofMillis(500), 3, 3, Duration.ofSeconds(1), Duration.ofMillis(500), 5, 40, 10,
				Duration.ofSeconds(6), Path.of("target", "c0.history.jsonl"), Workload.EXCLUSIVE, 1);
	}

}
