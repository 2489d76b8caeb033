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
import java.util.UUID;

import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What is particular to {@link RedlockClient} over five real redis-server processes when
 * every node is up: the quorum, and the lock and fencing counters on every node. The
 * store contract runs in {@link RedlockStoreContractIntegrationTests}.
 */
class RedlockClientIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(5);

	private RedlockNodes nodes;

	private RedlockClient client;

	@BeforeEach
	void createClient() {
		// Generous node timeouts, as in RedlockStoreContractIntegrationTests.
		this.nodes = RedlockNodes.connect(redis.uris(), Duration.ofSeconds(1));
		this.client = new RedlockClient(this.nodes.clients(), 0.01, Duration.ofSeconds(1));
	}

	@AfterEach
	void closeClient() {
		this.client.close();
		this.nodes.close();
	}

	@Test
	void quorumIsAMajorityOfTheNodes() {
		assertThat(this.client.getQuorum()).isEqualTo(3);
	}

	@Test
	void acquiredLockIsOnEveryNodeWithOneOwnerAndEveryCounterRaisedToTheToken() {
		String owner = owner();
		long token = acquired(this.client.tryAcquire("lock:k", owner, Duration.ofSeconds(10)));
		for (int i = 0; i < 5; i++) {
			assertThat(redis.endpoint(i).command("GET", "lock:k")).isEqualTo(owner);
			assertThat(Long.parseLong((String) redis.endpoint(i).command("GET", "{lock:k}\u001ffence\u001flock:k")))
				.isGreaterThanOrEqualTo(token);
		}
	}

	@Test
	void releaseRemovesTheLockFromEveryNode() {
		String owner = owner();
		this.client.tryAcquire("lock:k", owner, Duration.ofSeconds(10));
		assertThat(this.client.release("lock:k", owner)).isTrue();
		for (int i = 0; i < 5; i++) {
			assertThat(redis.endpoint(i).command("EXISTS", "lock:k")).isEqualTo(0L);
		}
	}

	@Test
	void lockHeldOnAMajorityByAnotherOwnerIsBusy() {
		for (int i = 0; i < 3; i++) {
			redis.endpoint(i).command("SET", "lock:k", "someone else", "PX", "10000");
		}
		assertThat(this.client.tryAcquire("lock:k", owner(), Duration.ofSeconds(10)))
			.isInstanceOf(AcquireResult.Busy.class);
		for (int i = 3; i < 5; i++) {
			assertThat(redis.endpoint(i).command("EXISTS", "lock:k")).as("partial acquisition released").isEqualTo(0L);
		}
	}

	@Test
	void fencingTokenIsAboveAnEarlierTokenEvenIfTheNewMajorityMissedIt() {
		// Nodes 0-2 saw a high token that nodes 3-4 never saw: a later majority {2,3,4}
		// shares node 2 with it, so the later token must still be higher.
		long high = System.currentTimeMillis() * 1000 + 60_000_000L;
		for (int i = 0; i < 3; i++) {
			redis.endpoint(i).command("SET", "{lock:k}\u001ffence\u001flock:k", String.valueOf(high));
		}
		redis.endpoint(0).command("SET", "lock:k", "someone else", "PX", "10000");
		redis.endpoint(1).command("SET", "lock:k", "someone else", "PX", "10000");
		long token = acquired(this.client.tryAcquire("lock:k", owner(), Duration.ofSeconds(10)));
		assertThat(token).isGreaterThan(high);
		for (int i = 2; i < 5; i++) {
			assertThat(Long.parseLong((String) redis.endpoint(i).command("GET", "{lock:k}\u001ffence\u001flock:k")))
				.isGreaterThanOrEqualTo(token);
		}
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
