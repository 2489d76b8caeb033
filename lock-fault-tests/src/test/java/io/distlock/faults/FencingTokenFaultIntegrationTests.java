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
import java.util.List;

import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.Violation;
import io.distlock.faults.proxy.TcpProxy;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sequences the fencing-token rule is made for, under load: a failover that loses
 * grants while the key's counter runs ahead of the clock, and Redlock nodes restarted
 * empty after the ttl (Redlock's delayed restart). Under the documented assumptions no
 * two acquisitions of a key may get the same token, and no section may enter after
 * another one left with a token that is not greater ({@code decreasing-tokens}, which
 * unlike {@code token-regressions} excuses no holder told it lost the lock).
 */
class FencingTokenFaultIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	/**
	 * How far the keys' counters are set ahead of the primary's clock before the clients
	 * start.
	 */
	private static final Duration LEAD = Duration.ofSeconds(60);

	/**
	 * How long the old primary keeps granting after its replica was promoted, before the
	 * clients are turned to the new primary: the grants the failover loses.
	 */
	private static final Duration SPLIT = Duration.ofMillis(300);

	private static final int FAILOVERS = 3;

	private static final String LEAD_MEASURE = "smallest-counter-lead-at-the-first-failover-ms";

	private static final int RESTARTS = 4;

	/**
	 * How far the old primary's clock runs ahead of the promoted replica's, emulated by
	 * its counters, set that far ahead of its clock at each promotion.
	 */
	private static final Duration OLD_PRIMARY_AHEAD = Duration.ofMillis(500);

	@Test
	void failoverLosingGrantsWithTheCounterAheadOfTheClockRepeatsNoTokenAndNeverGoesBack() throws Exception {
		ScenarioResult result = failoverScenario("failover-counter-ahead", 71, 0);
		assertTokensIncreased(result);
		assertFailoversLostGrants(result);
	}

	@Test
	void failoverWithMinReplicasAndTheCounterAheadOfTheClockRepeatsNoTokenAndNeverGoesBack() throws Exception {
		ScenarioResult result = failoverScenario("failover-counter-ahead-min-replicas", 72, 1);
		assertTokensIncreased(result);
		assertFailoversLostGrants(result);
	}

	@Test
	void failoverWithMinReplicasAndTheOldPrimarysClockAheadRepeatsNoTokenAndNeverGoesBack() throws Exception {
		ScenarioResult result = failoverScenario("failover-old-primary-ahead-min-replicas", 75, 1, Duration.ZERO,
				OLD_PRIMARY_AHEAD);
		assertTokensIncreased(result);
		assertThat(ScenarioAssertions.marks(result.history(), "switched")).as("failovers completed").hasSize(FAILOVERS);
	}

	@Test
	void redlockNodesRestartedEmptyAfterTheTtlRepeatNoTokenAndNeverGoBack() throws Exception {
		ScenarioResult result = FaultScenario.named("restart-redlock-delayed", 73)
			.redlock(3)
			.timeout(Duration.ofMillis(200))
			.ttl(TTL)
			.work(50, 300)
			.duration(Duration.ofSeconds(9))
			.faults((context) -> {
				// Each node in turn, one at a time (a minority of three), kept down for
				// longer than the ttl and restarted without its data (the harness runs
				// Redis without persistence).
				for (int round = 0; round < RESTARTS; round++) {
					context.sleepUntil(Duration.ofMillis(800 + round * 2000 + context.random().nextInt(300)));
					int index = round % 3;
					RedisServer node = context.lockServer(index);
					node.kill();
					context.fault("kill", "redis-" + index);
					context.sleep(TTL.plusMillis(300));
					node.restart();
					context.note("restarted", "redis-" + index);
				}
			})
			.run();
		assertTokensIncreased(result);
		assertThat(result.report().excusedOverlaps()).as("overlaps, even of holders told they lost the lock").isZero();
		List<StorageOp> restarts = ScenarioAssertions.marks(result.history(), "restarted");
		assertThat(restarts).as("restarts").hasSize(RESTARTS);
		long lastRestart = restarts.get(RESTARTS - 1).seq();
		assertThat(result.history().sections()).as("sections after the last restart")
			.anySatisfy((section) -> assertThat(section.enterSeq()).isGreaterThan(lastRestart));
	}

	/**
	 * A primary with one replica, the keys' counters set {@link #LEAD} ahead of the
	 * primary's clock right before the clients start locking; then, {@link #FAILOVERS}
	 * times, the replica is promoted ({@code REPLICAOF NO ONE}) while the old primary
	 * goes on granting for {@link #SPLIT}, the clients' proxies are turned to the new
	 * primary and their connections reset, and the old primary becomes the new one's
	 * replica, dropping what it granted meanwhile.
	 */
	private static ScenarioResult failoverScenario(String name, long seed, int minReplicas) throws Exception {
		return failoverScenario(name, seed, minReplicas, LEAD, Duration.ZERO);
	}

	/**
	 * The failover scenario above, with the counters set {@code lead} ahead before the
	 * clients start (none for zero), and the old primary's counters set {@code oldAhead}
	 * ahead of its clock at each promotion (none for zero), so that it grants as a server
	 * whose clock runs that far ahead of the promoted replica's would.
	 */
	private static ScenarioResult failoverScenario(String name, long seed, int minReplicas, Duration lead,
			Duration oldAhead) throws Exception {
		return FaultScenario.named(name, seed)
			.replicated()
			.ttl(TTL)
			// Sections long enough to be in progress when the clients are turned.
			.work(100, 400)
			.minReplicas(minReplicas)
			.duration(Duration.ofSeconds(10))
			// Asynchronous replication: a lost grant's holder overlaps the next one.
			.notGuaranteed(Violation.OVERLAP)
			.prepare((servers) -> {
				if (!lead.isZero()) {
					setCountersAhead(servers.get(0), lead);
				}
			})
			.faults((context) -> {
				RedisServer primary = context.lockServer(0);
				RedisServer replica = context.lockServer(1);
				long lostGrants = 0;
				for (int round = 0; round < FAILOVERS; round++) {
					context.sleepUntil(Duration.ofMillis(1500 + round * 2500 + context.random().nextInt(300)));
					if (round == 0 && !lead.isZero()) {
						context.measure(LEAD_MEASURE, smallestLead(primary).toMillis());
					}
					// A primary once the command returns; the old one goes on granting.
					replica.command("REPLICAOF", "NO", "ONE");
					context.fault("promote", "redis-" + replica.port());
					if (!oldAhead.isZero()) {
						setOldPrimaryAhead(primary, oldAhead);
					}
					context.sleep(SPLIT);
					lostGrants += keysWithCounterAhead(primary, replica);
					for (TcpProxy proxy : context.proxies()) {
						proxy.retarget("127.0.0.1", replica.port());
						proxy.dropConnections();
					}
					context.note("switched", "redis-" + replica.port());
					primary.command("REPLICAOF", "127.0.0.1", String.valueOf(replica.port()));
					replica.awaitReplicasInSync(1);
					RedisServer demoted = primary;
					primary = replica;
					replica = demoted;
				}
				context.measure("keys-granted-on-the-old-primary-after-the-promotion", lostGrants);
			})
			.run();
	}

	/**
	 * Write every key's counter ahead of the primary's clock, as a counter is after a
	 * clock stepped back, and wait until the replica has it.
	 */
	private static void setCountersAhead(RedisServer primary, Duration lead) {
		long now = clock(primary);
		for (int k = 0; k < 3; k++) {
			primary.command("SET", fence("k" + k), String.valueOf(now + lead.toNanos() / 1000), "PX", "600000");
		}
		// Not WAIT: sent on a connection of its own, which wrote nothing, it waits for
		// nothing; the replica's acknowledged offset is what tells.
		primary.awaitReplicasInSync(1);
	}

	/**
	 * Write every key's counter on the old primary, once its replica was promoted, as a
	 * server whose clock runs the given time ahead leaves it: that far ahead of its clock
	 * ("T:C", fencing.lua), so that its further grants are its clock plus that time.
	 */
	private static void setOldPrimaryAhead(RedisServer primary, Duration ahead) {
		long now = clock(primary);
		for (int k = 0; k < 3; k++) {
			primary.command("SET", fence("k" + k), (now + ahead.toNanos() / 1000) + ":" + now, "PX", "600000");
		}
	}

	/**
	 * Return by how much the keys' last tokens on the server are ahead of its clock, for
	 * the key least ahead.
	 */
	private static Duration smallestLead(RedisServer server) {
		long now = clock(server);
		long smallest = Long.MAX_VALUE;
		for (int k = 0; k < 3; k++) {
			smallest = Math.min(smallest, lastToken(server, fence("k" + k)) - now);
		}
		return Duration.ofNanos(smallest * 1000);
	}

	/**
	 * Count the keys whose last token on the old primary is past the one on the promoted
	 * replica: grants the failover loses.
	 */
	private static int keysWithCounterAhead(RedisServer old, RedisServer promoted) {
		int ahead = 0;
		for (int k = 0; k < 3; k++) {
			if (lastToken(old, fence("k" + k)) > lastToken(promoted, fence("k" + k))) {
				ahead++;
			}
		}
		return ahead;
	}

	// The counter holds "T" or "T:C" (the last token, the clock at its grant).
	private static long lastToken(RedisServer server, String counter) {
		Object value = server.command("GET", counter);
		if (value == null) {
			return 0;
		}
		String text = (value instanceof byte[] bytes) ? new String(bytes) : String.valueOf(value);
		int colon = text.indexOf(':');
		return Long.parseLong((colon < 0) ? text : text.substring(0, colon));
	}

	/**
	 * Return the name of a key's fencing counter: {@code {lock:k}<US>fence<US>lock:k} for
	 * the lock key {@code lock:k}, with the unit separator.
	 */
	private static String fence(String key) {
		String lockKey = ScenarioContext.lockKey(key);
		return "{" + lockKey + "}" + (char) 0x1f + "fence" + (char) 0x1f + lockKey;
	}

	private static long clock(RedisServer server) {
		List<?> time = (List<?>) server.command("TIME");
		return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000 + Long.parseLong(String.valueOf(time.get(1)));
	}

	private static void assertTokensIncreased(ScenarioResult result) {
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().count(Violation.DUPLICATE_TOKEN)).as(result.summary()).isZero();
		assertThat(result.report().count(Violation.TOKEN_REGRESSION)).as(result.summary()).isZero();
		assertThat(result.report().decreasingTokens()).as(result.summary()).isZero();
		assertThat(result.report().sections()).isPositive();
	}

	private static void assertFailoversLostGrants(ScenarioResult result) {
		assertThat((long) result.measurements().get(LEAD_MEASURE)).as("counters ahead of the clock").isPositive();
		List<StorageOp> switches = ScenarioAssertions.marks(result.history(), "switched");
		assertThat(switches).as("failovers completed").hasSize(FAILOVERS);
		assertThat((long) result.measurements().get("keys-granted-on-the-old-primary-after-the-promotion"))
			.as("grants the failovers lost")
			.isPositive();
		long last = switches.get(FAILOVERS - 1).seq();
		assertThat(result.history().sections()).as("sections after the last failover")
			.anySatisfy((section) -> assertThat(section.enterSeq()).isGreaterThan(last));
	}

}
