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

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisSentinelGroup}.
 */
class RedisSentinelGroupTests {

	@Test
	void startedGroupHasEverySentinelMonitoringThePrimaryWithBothReplicas() {
		// given
		long start = System.nanoTime();
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			log("startup", start);
			String sentinel = group.sentinelAddresses().get(0);

			// when
			Object master = command(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", group.masterName());
			Object replicas = command(sentinel, "SENTINEL", "REPLICAS", group.masterName());
			Object sentinels = command(sentinel, "SENTINEL", "SENTINELS", group.masterName());

			// then
			assertThat(group.masterName()).isEqualTo("distlock");
			assertThat(group.sentinelAddresses()).hasSize(3).allMatch((address) -> address.startsWith("127.0.0.1:"));
			assertThat(master).isEqualTo(List.of("127.0.0.1", Integer.toString(group.primary().port())));
			assertThat((List<?>) replicas).hasSize(2);
			assertThat((List<?>) sentinels).hasSize(2);
			assertThat(group.replicas()).hasSize(2).doesNotContain(group.primary());
			assertThat(group.primary().info("replication")).contains("role:master", "connected_slaves:2");
		}
	}

	@Test
	void failoverPromotesAReplicaThatKeepsTheDataIsFollowedByTheOthersAndCanBeRepeated() {
		// given
		try (RedisSentinelGroup group = RedisSentinelGroup.start("--requirepass", "secret")) {
			RedisServer old = group.primary();
			old.command("SET", "lock:a", "token");
			old.awaitReplicasInSync(2);
			long start = System.nanoTime();

			// when
			RedisServer promoted = group.failover();

			// then
			log("failover", start);
			assertThat(promoted).isNotSameAs(old).isSameAs(group.primary());
			assertThat(group.replicas()).hasSize(2).contains(old);
			assertThat(promoted.info("replication")).contains("role:master");
			assertThat(promoted.command("GET", "lock:a")).isEqualTo("token");
			for (RedisServer replica : group.replicas()) {
				assertThat(replica.info("replication")).contains("role:slave", "master_port:" + promoted.port(),
						"master_link_status:up");
			}
			promoted.command("SET", "lock:b", "token");
			promoted.awaitReplicasInSync(2);
			assertThat(old.command("GET", "lock:b")).isEqualTo("token");
			assertThat(group.failover()).isNotSameAs(promoted).isSameAs(group.primary());
		}
	}

	@Test
	void clientsFoundThroughTheSentinelsWriteToTheNewPrimaryAfterAFailover() {
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(group);
			try {
				StringRedisTemplate redis = new StringRedisTemplate(factory);
				redis.opsForValue().set("before", "1");
				RedisServer promoted = group.failover();
				// As a Sentinel does, the demoted primary drops its clients, which then
				// ask the sentinels again instead of writing to a replica.
				await().atMost(Duration.ofSeconds(10))
					.ignoreExceptions()
					.untilAsserted(() -> redis.opsForValue().set("after", "1"));
				assertThat(promoted.command("GET", "after")).isEqualTo("1");
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void killedPrimaryIsReplacedByAReplicaAndComesBackAsItsReplica() {
		// given
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			RedisServer old = group.primary();
			old.command("SET", "lock:a", "token");
			old.awaitReplicasInSync(2);
			long start = System.nanoTime();

			// when
			RedisServer promoted = group.killPrimaryAndAwaitFailover();
			log("kill and failover", start);
			old.restart();

			// then
			assertThat(promoted).isNotSameAs(old).isSameAs(group.primary());
			assertThat(promoted.command("GET", "lock:a")).isEqualTo("token");
			promoted.awaitReplicasInSync(2);
			assertThat(old.info("replication")).contains("role:slave", "master_port:" + promoted.port());
			assertThat(old.command("GET", "lock:a")).isEqualTo("token");
		}
	}

	@Test
	void restoreBringsAKilledPrimaryAndAPausedReplicaBackInSyncWithTheNewPrimary() {
		// given
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			RedisServer old = group.primary();
			RedisServer promoted = group.killPrimaryAndAwaitFailover();
			RedisServer paused = group.replicas().stream().filter((server) -> server != old).findFirst().orElseThrow();
			promoted.command("SET", "lock:a", "token");
			promoted.awaitReplicasInSync(1);
			paused.pause();
			long start = System.nanoTime();

			// when
			group.restore();

			// then: normally the promoted server is still the primary; the sentinels may
			// have failed over again on a loaded machine, and restore follows them.
			log("restore", start);
			RedisServer primary = group.primary();
			assertThat(old.isRunning()).isTrue();
			assertThat(paused.isPaused()).isFalse();
			assertThat(primary.info("replication")).contains("role:master", "connected_slaves:2");
			for (RedisServer replica : group.replicas()) {
				assertThat(replica.info("replication")).contains("role:slave", "master_port:" + primary.port(),
						"master_link_status:up");
				assertThat(replica.command("GET", "lock:a")).isEqualTo("token");
			}
			assertThat(primary.command("GET", "lock:a")).isEqualTo("token");
			for (String sentinel : group.sentinelAddresses()) {
				assertThat(command(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", group.masterName()))
					.isEqualTo(List.of("127.0.0.1", Integer.toString(primary.port())));
			}
		}
	}

	private static Object command(String address, String... args) {
		String[] hostAndPort = address.split(":");
		try (RespConnection connection = RespConnection.open(hostAndPort[0], Integer.parseInt(hostAndPort[1]), null,
				RespConnection.DEFAULT_TIMEOUT)) {
			return connection.command(args);
		}
	}

	private static void log(String what, long start) {
		System.out.println(what + " took " + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
	}

}
