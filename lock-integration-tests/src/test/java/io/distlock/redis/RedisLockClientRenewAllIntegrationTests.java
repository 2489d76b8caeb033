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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.distlock.store.AcquireResult;
import io.distlock.store.Renewal;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RespConnection;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link RedisLockClient#renewAll}: what a renewal tick costs the
 * server, counted in connections and commands, and that one bad lease does not fail the
 * others.
 */
class RedisLockClientRenewAllIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration RENEWED_TTL = Duration.ofSeconds(60);

	private static final int LEASES = 10;

	private static final int TICKS = 20;

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	private RespConnection admin;

	@BeforeEach
	void createClient() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
		// One connection of its own, so that asking for the counts opens none in between.
		this.admin = redis.endpoint().connect(RespConnection.DEFAULT_TIMEOUT);
	}

	@AfterEach
	void destroyClient() {
		this.admin.close();
		this.connectionFactory.destroy();
	}

	@Test
	void renewalTicksOpenNoConnection() {
		List<Renewal> renewals = acquire(LEASES);
		long connectionsBefore = stat("stats", "total_connections_received:(\\d+)");
		for (int tick = 0; tick < TICKS; tick++) {
			assertThat(this.client.renewAll(renewals)).containsOnly(true).hasSize(LEASES);
		}
		// The client connected while acquiring; renewals run on that connection.
		assertThat(stat("stats", "total_connections_received:(\\d+)") - connectionsBefore).isZero();
	}

	@Test
	void firstAcquisitionLoadsTheScriptsOnTheConnectionTheyRunOn() {
		// Through a slow link, a connection of its own for loading the scripts cost the
		// first acquisition a connect, a handshake and a close, all of it while its lease
		// was running: enough to lose the lock before its first renewal.
		long connectionsBefore = stat("stats", "total_connections_received:(\\d+)");
		acquire(1);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.admin.command("SCRIPT", "EXISTS", LockScripts.RENEW_ALL.getSha1(),
					LockScripts.RELEASE.getSha1()))
				.isEqualTo(List.of(1L, 1L)));
		assertThat(stat("stats", "total_connections_received:(\\d+)") - connectionsBefore)
			.as("connections opened: the one the scripts run on, only")
			.isOne();
	}

	@Test
	void initializedClientConnectsAndLoadsItsScriptsBeforeTheFirstLock() {
		long connectionsBefore = stat("stats", "total_connections_received:(\\d+)");
		this.client.afterPropertiesSet();
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.admin.command("SCRIPT", "EXISTS", LockScripts.ACQUIRE.getSha1(),
					LockScripts.RENEW_ALL.getSha1(), LockScripts.RELEASE.getSha1()))
				.isEqualTo(List.of(1L, 1L, 1L)));
		long scriptCallsBefore = scriptCalls();
		acquire(1);
		assertThat(stat("stats", "total_connections_received:(\\d+)") - connectionsBefore)
			.as("connections opened: the one the scripts run on, before the first lock")
			.isOne();
		assertThat(scriptCalls() - scriptCallsBefore).as("the first acquisition is one EVALSHA, no NOSCRIPT and EVAL")
			.isOne();
	}

	@Test
	void renewalTickSendsOneScriptCallPerBatch() {
		List<Renewal> renewals = acquire(LEASES);
		long callsBefore = scriptCalls();
		for (int tick = 0; tick < TICKS; tick++) {
			this.client.renewAll(renewals);
		}
		assertThat(scriptCalls() - callsBefore).isEqualTo(TICKS);
	}

	@Test
	void renewalTickSplitsLargeBatches() {
		int leases = RedisLockClient.MAX_RENEWAL_BATCH + LEASES;
		List<Renewal> renewals = acquire(leases);
		long callsBefore = scriptCalls();
		assertThat(this.client.renewAll(renewals)).containsOnly(true).hasSize(leases);
		assertThat(scriptCalls() - callsBefore).isEqualTo(2);

		assertThat((Long) redis.endpoint().command("PTTL", renewals.get(leases - 1).key()))
			.isGreaterThan(TTL.toMillis());
	}

	@Test
	void renewalTickRenewsEveryOtherLeaseWhenOneKeyWasOverwrittenWithAnotherType() {
		List<Renewal> renewals = acquire(LEASES);
		String overwritten = renewals.get(LEASES / 2).key();
		redis.endpoint().command("DEL", overwritten);
		redis.endpoint().command("HSET", overwritten, "field", "value");
		boolean[] renewed = this.client.renewAll(renewals);
		for (int i = 0; i < LEASES; i++) {
			assertThat(renewed[i]).as(renewals.get(i).key()).isEqualTo(i != LEASES / 2);
			if (i != LEASES / 2) {
				assertThat((Long) redis.endpoint().command("PTTL", renewals.get(i).key()))
					.isGreaterThan(TTL.toMillis());
			}
		}
	}

	@Test
	void renewalTickAnswersCorrectlyAfterRedisForgotTheScripts() {
		// Acquiring loaded the scripts into Redis, which forgets them now.
		List<Renewal> renewals = acquire(LEASES);
		redis.endpoint().command("SCRIPT", "FLUSH");
		List<Renewal> mixed = new ArrayList<>(renewals);
		Renewal lost = mixed.remove(0);
		mixed.add(0, new Renewal(lost.key(), owner(), RENEWED_TTL));
		boolean[] renewed = this.client.renewAll(mixed);
		assertThat(renewed[0]).isFalse();
		for (int i = 1; i < LEASES; i++) {
			assertThat(renewed[i]).isTrue();
		}
		assertThat((Long) redis.endpoint().command("PTTL", lost.key())).isLessThanOrEqualTo(TTL.toMillis());
	}

	@Test
	void renewalTickOnRedisClusterSendsOneScriptCallPerHashSlot() {
		try (RedisServer server = RedisServer.start("--cluster-enabled", "yes")) {
			LettuceConnectionFactory factory = clusterOfOneNode(server);
			try (RespConnection admin = server.connect(RespConnection.DEFAULT_TIMEOUT)) {
				RedisLockClient client = new RedisLockClient(factory);
				// Keys in many slots, and some sharing one through a hash tag.
				List<String> keys = new ArrayList<>();
				for (int i = 0; i < LEASES; i++) {
					keys.add("lock:lease:" + i);
					keys.add("lock:{shared}:" + i);
				}
				List<Renewal> renewals = new ArrayList<>();
				for (String key : keys) {
					String owner = owner();
					assertThat(client.tryAcquire(key, owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
					renewals.add(new Renewal(key, owner, RENEWED_TTL));
				}
				long slots = keys.stream()
					.map((key) -> ClusterSlotHashUtil.calculateSlot(key.getBytes(StandardCharsets.UTF_8)))
					.distinct()
					.count();
				awaitScriptsLoaded(admin);
				long callsBefore = scriptCalls(admin);
				assertThat(client.renewAll(renewals)).containsOnly(true).hasSize(keys.size());
				assertThat(scriptCalls(admin) - callsBefore).isEqualTo(slots).isLessThan(keys.size());
			}
			finally {
				RedisConnections.destroy(factory);
			}
		}
	}

	/**
	 * Make the server a cluster of its own, serving every slot, and connect to it as to a
	 * cluster: Redis refuses a script whose keys are in different slots even then.
	 */
	private static LettuceConnectionFactory clusterOfOneNode(RedisServer server) {
		List<String> addSlots = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
		for (int slot = 0; slot < ClusterSlotHashUtil.SLOT_COUNT; slot++) {
			addSlots.add(String.valueOf(slot));
		}
		server.command(addSlots.toArray(String[]::new));
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> ((String) server.command("CLUSTER", "INFO")).contains("cluster_state:ok"));
		RedisClusterConfiguration cluster = new RedisClusterConfiguration(List.of(server.host() + ":" + server.port()));
		LettuceConnectionFactory factory = new LettuceConnectionFactory(cluster,
				LettuceClientConfiguration.builder().commandTimeout(RedisConnections.TIMEOUT).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private List<Renewal> acquire(int count) {
		List<Renewal> renewals = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			String key = "lock:lease:" + i;
			String owner = owner();
			assertThat(this.client.tryAcquire(key, owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
			renewals.add(new Renewal(key, owner, RENEWED_TTL));
		}
		// The first acquisition loads the other scripts in the background: counting
		// script calls before they are in would count a NOSCRIPT and its EVAL too.
		awaitScriptsLoaded(this.admin);
		return renewals;
	}

	private static void awaitScriptsLoaded(RespConnection admin) {
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(
					() -> assertThat((List<Object>) admin.command("SCRIPT", "EXISTS", LockScripts.ACQUIRE.getSha1(),
							LockScripts.RENEW_ALL.getSha1(), LockScripts.RELEASE.getSha1()))
						.containsOnly(1L));
	}

	/**
	 * Count the script calls the server ran, by EVALSHA or EVAL.
	 */
	private long scriptCalls() {
		return scriptCalls(this.admin);
	}

	private static long scriptCalls(RespConnection admin) {
		return stat(admin, "commandstats", "cmdstat_evalsha:calls=(\\d+)")
				+ stat(admin, "commandstats", "cmdstat_eval:calls=(\\d+)");
	}

	private long stat(String section, String regex) {
		return stat(this.admin, section, regex);
	}

	private static long stat(RespConnection admin, String section, String regex) {
		String info = (String) admin.command("INFO", section);
		Matcher matcher = Pattern.compile(regex).matcher(info);
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
