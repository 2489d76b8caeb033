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

package io.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.Violation;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover of the lock Redis to a replica under load, on Redis Cluster (3 primaries with
 * one replica each) and on a Sentinel group (a primary, two replicas, three sentinels),
 * with and without {@code distlock.replication.min-replicas}. Replication is
 * asynchronous: a lock the old primary granted but had not yet passed on is not on the
 * promoted replica, so mutual exclusion is not guaranteed across a failover (as across a
 * restart without persistence) and overlaps are measured. Fencing must hold: no stale
 * write accepted, no token regression unseen; and the clients must follow the new
 * primary, taking the moved locks again after the last fault.
 */
class ReplicaFailoverIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	private static final String KEY = "k0";

	@Test
	void clusterFailover() throws Exception {
		ScenarioResult result = clusterScenario("cluster-failover", 55, 0);
		assertFencingHeldAndClientsFollowed(result);
	}

	@Test
	void clusterFailoverWithMinReplicas() throws Exception {
		ScenarioResult result = clusterScenario("cluster-failover-min-replicas", 56, 1);
		assertFencingHeldAndClientsFollowed(result);
	}

	@Test
	void sentinelFailover() throws Exception {
		ScenarioResult result = sentinelScenario("sentinel-failover", 57, 0);
		assertFencingHeldAndClientsFollowed(result);
	}

	@Test
	void sentinelFailoverWithMinReplicas() throws Exception {
		ScenarioResult result = sentinelScenario("sentinel-failover-min-replicas", 58, 1);
		assertFencingHeldAndClientsFollowed(result);
	}

	/**
	 * The primary serving {@code lock:k0} is killed with SIGKILL and its replica takes
	 * over; the killed node rejoins (as a replica); then another primary is failed over
	 * by hand ({@code CLUSTER FAILOVER}), which hands over without losing writes.
	 */
	private ScenarioResult clusterScenario(String name, long seed, int minReplicas) throws Exception {
		return scenario(name, seed, minReplicas).cluster(3, 1).duration(Duration.ofSeconds(10)).faults((context) -> {
			RedisCluster cluster = context.cluster();
			context.measure("keys-by-primary", keysByPrimary(cluster));
			context.sleepUntil(Duration.ofMillis(1500 + context.random().nextInt(400)));
			RedisServer victim = cluster.primaryForKey(ScenarioContext.lockKey(KEY));
			context.fault("kill-primary", "redis-" + victim.port());
			long start = System.nanoTime();
			RedisServer promoted = cluster.killPrimaryAndAwaitFailover(victim);
			context.measure("kill-to-promoted", millisSince(start) + "ms");
			context.note("promoted", "redis-" + promoted.port());
			context.sleep(Duration.ofMillis(500));
			start = System.nanoTime();
			cluster.rejoin(victim);
			context.measure("rejoin", millisSince(start) + "ms");
			context.sleepUntil(Duration.ofMillis(6000 + context.random().nextInt(400)));
			RedisServer other = cluster.primaries()
				.stream()
				.filter((primary) -> !primary.equals(promoted))
				.findFirst()
				.orElseThrow();
			context.fault("failover", "redis-" + other.port());
			start = System.nanoTime();
			RedisServer taken = cluster.failover(other);
			context.measure("manual-failover", millisSince(start) + "ms");
			context.note("promoted", "redis-" + taken.port());
		}).run();
	}

	/**
	 * The primary is killed with SIGKILL and the sentinels promote a replica; the killed
	 * server comes back as a replica; then the sentinels are made to fail over by hand
	 * ({@code SENTINEL FAILOVER}) and the demoted primary's clients are disconnected, as
	 * a Sentinel does when it reconfigures a former primary.
	 */
	private ScenarioResult sentinelScenario(String name, long seed, int minReplicas) throws Exception {
		return scenario(name, seed, minReplicas).sentinel().duration(Duration.ofSeconds(11)).faults((context) -> {
			RedisSentinelGroup group = context.sentinelGroup();
			context.sleepUntil(Duration.ofMillis(1500 + context.random().nextInt(400)));
			RedisServer victim = group.primary();
			context.fault("kill-primary", "redis-" + victim.port());
			long start = System.nanoTime();
			RedisServer promoted = group.killPrimaryAndAwaitFailover();
			context.measure("kill-to-promoted", millisSince(start) + "ms");
			context.note("promoted", "redis-" + promoted.port());
			context.sleep(Duration.ofMillis(500));
			victim.ensureRunning();
			context.sleepUntil(Duration.ofMillis(6500 + context.random().nextInt(400)));
			context.fault("failover", "redis-" + promoted.port());
			start = System.nanoTime();
			RedisServer taken = group.failover();
			context.measure("manual-failover", millisSince(start) + "ms");
			// The group demotes the old primary and closes its clients' connections at
			// once, as a Sentinel does some seconds later; writes it refused meanwhile:
			context.measure("readonly-errors-on-the-demoted-primary", readOnlyErrors(promoted));
			context.note("promoted", "redis-" + taken.port());
		}).run();
	}

	private static FaultScenario scenario(String name, long seed, int minReplicas) {
		return FaultScenario.named(name, seed)
			.ttl(TTL)
			// Sections long enough to be in progress when the primary goes away.
			.work(100, 400)
			.minReplicas(minReplicas)
			.notGuaranteed(Violation.OVERLAP);
	}

	private static void assertFencingHeldAndClientsFollowed(ScenarioResult result) {
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().sections()).isPositive();
		List<StorageOp> promotions = ScenarioAssertions.marks(result.history(), "promoted");
		assertThat(promotions).as("failovers completed").hasSize(2);
		// The clients found the primary that now serves the key whose primary was
		// killed.
		long last = promotions.get(promotions.size() - 1).seq();
		Optional<StorageOp> after = ScenarioAssertions.firstEntryAfter(result.history(), KEY, "none", last);
		assertThat(after).as("a section on %s after the last failover", KEY).isPresent();
	}

	private static List<String> keysByPrimary(RedisCluster cluster) {
		List<String> owners = new ArrayList<>();
		for (int k = 0; k < 3; k++) {
			String key = ScenarioContext.lockKey("k" + k);
			owners.add(key + "@" + cluster.primaryForKey(key).port());
		}
		return owners;
	}

	// Writes the server refused as a replica, from INFO errorstats (Redis 6.2 and later):
	// "errorstat_READONLY:count=12".
	private static long readOnlyErrors(RedisServer server) {
		Object info = server.command("INFO", "errorstats");
		for (String line : String.valueOf(info).split("\r?\n")) {
			if (line.startsWith("errorstat_READONLY:count=")) {
				return Long.parseLong(line.substring("errorstat_READONLY:count=".length()).strip());
			}
		}
		return 0;
	}

	private static long millisSince(long start) {
		return Duration.ofNanos(System.nanoTime() - start).toMillis();
	}

}
