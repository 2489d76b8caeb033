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
import java.util.List;
import java.util.UUID;

import io.distlock.LockBackendException;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockState;
import io.distlock.store.RaisableFencingLockClient;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests for inspecting and force-releasing locks with {@link RedlockClient}
 * over five real redis-server processes: how the nodes' answers combine, and nodes
 * killed. The inspection contract runs in {@link RedlockStoreContractIntegrationTests}.
 */
class RedlockClientInspectionIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(500);

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final String FENCE = "{k}\u001ffence\u001fk";

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
	void lockHeldOnAMajorityForOneHolderIsHeldWithTheShortestLeaseAmongThoseNodes() {
		setLock(0, "a", 10_000);
		setLock(1, "a", 8_000);
		setLock(2, "a", 6_000);
		setLock(3, "b", 20_000);
		setLock(4, "b", 20_000);
		LockState state = this.client.inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(6_000));
		assertThat(state.holder()).isEqualTo(this.nodes.clients().get(0).inspect("k").holder());
		assertThat(state.fairWaiters()).isZero();
	}

	@Test
	void lockHeldByDifferentHoldersOnMinoritiesIsNotHeld() {
		setLock(0, "a", 10_000);
		setLock(1, "a", 10_000);
		setLock(2, "b", 10_000);
		setLock(3, "b", 10_000);
		assertThat(this.client.inspect("k")).isEqualTo(new LockState(false, null, null, 0, null));
	}

	@Test
	void lastFencingTokenIsTheHighestAnyNodeKnows() {
		for (int i = 0; i < 5; i++) {
			redis.endpoint(i).command("SET", FENCE, String.valueOf(1000 + i * ((i == 3) ? 10 : 1)));
		}
		assertThat(this.client.inspect("k").lastFencingToken()).isEqualTo(1030L);
	}

	@Test
	void forceReleaseRemovesTheLockFromEveryNode() {
		this.client.tryAcquire("k", owner(), TTL);
		assertThat(this.client.forceRelease("k")).isTrue();
		for (int i = 0; i < 5; i++) {
			assertThat(redis.endpoint(i).command("EXISTS", "k")).isEqualTo(0L);
		}
	}

	@Test
	void forceReleaseRemovesALockHeldOnlyOnAMinority() {
		setLock(4, "a", 10_000);
		assertThat(this.client.forceRelease("k")).isTrue();
		assertThat(redis.endpoint(4).command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void withOneNodeKilledALockIsStillInspectedAndForceReleased() {
		long token = acquired(this.client.tryAcquire("k", owner(), TTL));
		redis.server(0).kill();
		LockState state = this.client.inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.lastFencingToken()).isEqualTo(token);
		assertThat(this.client.forceRelease("k")).isTrue();
		assertThat(this.client.inspect("k").held()).isFalse();
		assertThat(acquired(this.client.tryAcquire("k", owner(), TTL))).isGreaterThan(token);
	}

	@Test
	void withThreeNodesKilledInspectionIsABackendFailureNamingTheKeyAndHowManyAnswered() {
		redis.server(0).kill();
		redis.server(1).kill();
		redis.server(2).kill();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> this.client.inspect("k"))
			.withMessageContaining("Only 2 of 5 Redlock nodes answered to inspect lock 'k'; 3 are needed")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"));
	}

	@Test
	void withThreeNodesKilledForceReleaseIsABackendFailureButRemovesTheLockFromTheNodesThatAnswered() {
		this.client.tryAcquire("k", owner(), TTL);
		redis.server(0).kill();
		redis.server(1).kill();
		redis.server(2).kill();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> this.client.forceRelease("k"))
			.withMessageContaining("Only 2 of 5 Redlock nodes answered to force-release lock 'k'; 3 are needed");
		assertThat(redis.endpoint(3).command("EXISTS", "k")).isEqualTo(0L);
		assertThat(redis.endpoint(4).command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void nodesThatCannotBeInspectedAreRefusedBeforeAnyNodeIsAsked() {
		List<RaisableFencingLockClient> plainNodes = this.nodes.clients()
			.stream()
			.map((node) -> (RaisableFencingLockClient) new PlainNode(node))
			.toList();
		try (RedlockClient plain = new RedlockClient(plainNodes, 0.01, NODE_TIMEOUT)) {
			assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> plain.inspect("k"))
				.withMessageContaining(PlainNode.class.getName());
			assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> plain.forceRelease("k"));
		}
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static void setLock(int node, String owner, long ttlMillis) {
		redis.endpoint(node).command("SET", "k", owner, "PX", String.valueOf(ttlMillis));
	}

	/**
	 * A real node that can take part in a Redlock but offers no inspection, as a store
	 * other than Redis might.
	 */
	private record PlainNode(RedisLockClient node) implements RaisableFencingLockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			return this.node.tryAcquire(key, ownerToken, ttl);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return this.node.release(key, ownerToken);
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			return this.node.renew(key, ownerToken, ttl);
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return this.node.isHeld(key, ownerToken);
		}

		@Override
		public boolean raiseFencingToken(String key, String ownerToken, long fencingToken) {
			return this.node.raiseFencingToken(key, ownerToken, fencingToken);
		}

	}

}
