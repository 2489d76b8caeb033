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
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.distlock.LockBackendException;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RedlockClient} under real node failures: five redis-server processes, some of
 * them killed, restarted or frozen.
 */
class RedlockFaultIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(5);

	private RedlockNodes nodes;

	private RedlockClient client;

	@BeforeEach
	void createClient() {
		this.nodes = RedlockNodes.connect(redis.uris(), NODE_TIMEOUT);
		this.client = new RedlockClient(this.nodes.clients(), 0.01, NODE_TIMEOUT);
	}

	@AfterEach
	void closeClient() {
		this.client.close();
		this.nodes.close();
	}

	@Test
	void locksKeepWorkingWithTwoOfFiveNodesKilled() {
		redis.server(0).kill();
		redis.server(1).kill();
		String owner = owner();
		assertThat(this.client.tryAcquire("k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.client.isHeld("k", owner)).isTrue();
		assertThat(this.client.renew("k", owner, TTL)).isTrue();
		assertThat(this.client.release("k", owner)).isTrue();
	}

	@Test
	void thirdKilledNodeMakesAcquisitionFailAsBackendUnavailableWithinABoundedTimeAndRestartHeals() throws Exception {
		redis.server(0).kill();
		redis.server(1).kill();
		redis.server(2).kill();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> this.client.tryAcquire("k", owner(), TTL))
			.withMessageContaining("of 5 Redlock nodes answered");
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
		redis.server(0).restart();
		redis.server(1).restart();
		redis.server(2).restart();
		assertThat(acquireWithin(Duration.ofSeconds(20))).isTrue();
	}

	@Test
	void failureOfTooFewAnsweringNodesNamesEachSilentNodesAddressAndTimeout() {
		redis.server(0).kill();
		redis.server(1).kill();
		redis.server(2).kill();
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> this.client.tryAcquire("k", owner(), TTL))
			.withMessageContaining("Only 2 of 5 Redlock nodes answered to acquire lock 'k'; 3 are needed")
			.withMessageContaining("127.0.0.1:" + redis.server(0).port())
			.withMessageContaining("127.0.0.1:" + redis.server(1).port())
			.withMessageContaining("127.0.0.1:" + redis.server(2).port())
			.withMessageContaining("200ms")
			.withMessageNotContaining("127.0.0.1:" + redis.server(3).port());
	}

	@Test
	void releaseThatAMajorityDoesNotAnswerIsABackendFailureNotAnExpiredLock() {
		String owner = owner();
		assertThat(this.client.tryAcquire("k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		redis.server(0).pause();
		redis.server(1).pause();
		redis.server(2).pause();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> this.client.release("k", owner))
			.withMessageContaining("Redlock nodes answered to release lock 'k'");
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> this.client.renew("k", owner, TTL));
	}

	@Test
	void frozenNodeDoesNotStallAcquisitionPastItsTimeout() {
		redis.server(0).pause();
		long start = System.nanoTime();
		assertThat(this.client.tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(System.nanoTime() - start).isLessThan(NODE_TIMEOUT.toNanos() * 2 + TimeUnit.SECONDS.toNanos(1));
	}

	@Test
	void clientReachingOnlyTwoOfFiveNodesNeverBelievesItHoldsTheLock() {
		List<String> partitioned = new ArrayList<>(redis.uris().subList(0, 2));
		try (RedisServer unreachable = RedisServer.start()) {
			// Three nodes this client cannot reach: a server that is then stopped, so its
			// port refuses connections.
			String deadUri = unreachable.uri();
			unreachable.kill();
			partitioned.add(deadUri);
			partitioned.add(deadUri);
			partitioned.add(deadUri);
			try (RedlockNodes minority = RedlockNodes.connect(partitioned, NODE_TIMEOUT);
					RedlockClient isolated = new RedlockClient(minority.clients(), 0.01, NODE_TIMEOUT)) {
				for (int i = 0; i < 5; i++) {
					assertThatExceptionOfType(LockBackendException.class)
						.isThrownBy(() -> isolated.tryAcquire("k", owner(), TTL));
				}
				String owner = owner();
				assertThat(this.client.tryAcquire("k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
			}
		}
	}

	@Test
	void fencingTokensIncreaseAcrossHoldersWhileNodesAreKilledAndRestarted() {
		Random random = new Random(42);
		long previous = 0;
		for (int round = 0; round < 12; round++) {
			int victim = random.nextInt(5);
			redis.server(victim).kill();
			String owner = owner();
			long token = acquiredWithin(owner, Duration.ofSeconds(20));
			assertThat(token).as("token of round %d", round).isGreaterThan(previous);
			previous = token;
			this.client.release("k", owner);
			// The node comes back empty, without the counter it had.
			redis.server(victim).restart();
		}
	}

	@Test
	void acquisitionSlowerThanTheTtlIsNotCountedAsHeld() {
		List<RedisLockClient> slow = this.nodes.connectionFactories()
			.stream()
			.map((factory) -> (RedisLockClient) new SlowNodeLockClient(factory, Duration.ofMillis(150)))
			.toList();
		try (RedlockClient slowClient = new RedlockClient(slow, 0.01, Duration.ofSeconds(1))) {
			assertThat(slowClient.tryAcquire("k", owner(), Duration.ofMillis(100)))
				.isInstanceOf(AcquireResult.Busy.class);
		}
		for (int i = 0; i < 5; i++) {
			assertThat(redis.endpoint(i).command("EXISTS", "k")).isEqualTo(0L);
		}
	}

	private boolean acquireWithin(Duration limit) throws InterruptedException {
		long deadline = System.nanoTime() + limit.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				if (this.client.tryAcquire("k", owner(), TTL) instanceof AcquireResult.Acquired) {
					return true;
				}
			}
			catch (LockBackendException ex) {
				// Nodes still reconnecting.
			}
			Thread.sleep(100);
		}
		return false;
	}

	private long acquiredWithin(String owner, Duration limit) {
		long deadline = System.nanoTime() + limit.toNanos();
		while (true) {
			try {
				if (this.client.tryAcquire("k", owner, TTL) instanceof AcquireResult.Acquired acquired) {
					return acquired.fencingToken();
				}
			}
			catch (LockBackendException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
			}
			assertThat(System.nanoTime()).as("acquired in time").isLessThan(deadline);
		}
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
