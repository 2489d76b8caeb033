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
import java.util.UUID;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redlock's fencing tokens when a node comes back, after Redlock's delayed restart, from
 * a snapshot older than its last grants (an RDB file, Redis' default persistence, or the
 * last second of an AOF {@code everysec}): its restored counter is below the tokens
 * handed out since, and a later majority whose only node in common with the last grant's
 * majority is that node must still hand out a greater token. Three real redis-server
 * processes on this machine, so the clocks agree (the assumption of docs/redlock.md).
 */
class RedlockStaleRestoreIntegrationTests {

	private static final String KEY = "lock:k";

	private static final Duration TTL = Duration.ofSeconds(1);

	/**
	 * Redlock's delayed restart as docs/redlock.md requires it: the longest ttl plus the
	 * 100 ms a node's token may lag its clock.
	 */
	private static final Duration RESTART_DELAY = TTL.plusMillis(100);

	private final List<RedisServer> servers = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private RedlockClient client;

	private final List<Long> tokens = new ArrayList<>();

	@BeforeEach
	void startNodes() {
		List<RedisLockClient> nodes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			RedisServer server = RedisServer.start();
			this.servers.add(server);
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server);
			this.factories.add(factory);
			// Connected before the first acquisition, whose validity is the ttl.
			try (RedisConnection connection = factory.getConnection()) {
				connection.ping();
			}
			RedisLockClient node = new RedisLockClient(factory);
			node.setFencingTokensFromClock(false);
			nodes.add(node);
		}
		this.client = new RedlockClient(nodes, 0.01, Duration.ofSeconds(1));
	}

	@AfterEach
	void stopNodes() {
		this.client.close();
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.servers.forEach(RedisServer::close);
	}

	@Test
	void givenANodeRestoredFromASnapshotOlderThanItsLastGrantsWhenALaterMajorityTakesItThenTheTokenIsGreater() {
		// Every node grants once: node 2's counter stays at that token from now on.
		grant();
		busy(2);
		grant();
		// The snapshot of node 1, then grants it does not hold.
		assertThat(this.servers.get(1).command("SAVE")).isEqualTo("OK");
		grant();
		grant();
		restartFromSnapshotAfterTheDelay(1);
		// Node 1 is the only node this majority shares with the last grant's.
		free(2);
		busy(0);
		grant();
		assertThat(this.tokens).as("tokens in the order granted").doesNotHaveDuplicates().isSorted();
	}

	@Test
	void givenANodeRestoredFromASnapshotWhenEveryNodeGrantsAgainThenTokensKeepIncreasing() {
		grant();
		assertThat(this.servers.get(0).command("SAVE")).isEqualTo("OK");
		for (int i = 0; i < 5; i++) {
			grant();
		}
		restartFromSnapshotAfterTheDelay(0);
		for (int i = 0; i < 5; i++) {
			grant();
		}
		assertThat(this.tokens).as("tokens in the order granted").doesNotHaveDuplicates().isSorted();
	}

	/**
	 * Take and release the lock, and keep its token.
	 */
	private void grant() {
		String owner = UUID.randomUUID().toString();
		AcquireResult result = this.client.tryAcquire(KEY, owner, TTL);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.release(KEY, owner)).isTrue();
		this.tokens.add(((AcquireResult.Acquired) result).fencingToken());
	}

	/**
	 * Kill the node (no save at exit), wait out Redlock's delayed restart by the clock of
	 * another node, and start it again on the same directory: it loads the snapshot.
	 */
	private void restartFromSnapshotAfterTheDelay(int index) {
		RedisServer node = this.servers.get(index);
		RedisServer other = this.servers.get((index + 1) % 3);
		node.kill();
		long killed = clock(other);
		await().atMost(RESTART_DELAY.plusSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> clock(other) > killed + RESTART_DELAY.toNanos() / 1000);
		node.restart();
		assertThat(node.command("DBSIZE")).as("keys restored from the snapshot").isNotEqualTo(0L);
	}

	private void busy(int index) {
		this.servers.get(index).command("SET", KEY, "someone else", "PX", "600000");
	}

	private void free(int index) {
		this.servers.get(index).command("DEL", KEY);
	}

	private static long clock(RedisServer server) {
		List<?> time = (List<?>) server.command("TIME");
		return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000 + Long.parseLong(String.valueOf(time.get(1)));
	}

}
