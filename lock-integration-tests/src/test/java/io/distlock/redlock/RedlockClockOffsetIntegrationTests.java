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
import java.util.Optional;
import java.util.UUID;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.AsyncFencingLockCalls;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redlock's fencing tokens across majorities when a node restarts empty (Redlock's
 * delayed restart), on three real redis-server processes: within the guarantee's
 * assumption (the nodes' clocks agree) the later majority's token is greater; with one
 * node's clock a minute ahead, outside it, the token can go back, and the run-time check
 * of the clock offsets reports the offset. The processes share this machine's clock, so
 * the fast node is a node whose counter started from a clock a minute ahead and whose
 * answers carry that clock.
 */
class RedlockClockOffsetIntegrationTests {

	private static final String KEY = "lock:k";

	private static final String FENCE = "{lock:k}\u001ffence\u001flock:k";

	private static final Duration TTL = Duration.ofSeconds(4);

	private static final Duration AHEAD = Duration.ofSeconds(60);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(3);

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private RedlockClient client;

	@AfterEach
	void close() {
		this.client.close();
		this.factories.forEach(LettuceConnectionFactory::destroy);
	}

	@Test
	void givenClocksThatAgreeWhenTheSharedNodeRestartsEmptyThenTheLaterMajoritysTokenIsGreater() {
		this.client = redlock(false);
		long first = acquiredOnNodes0And1();
		assertThat(acquiredOnNodes1And2AfterNode1Restarted()).isGreaterThan(first);
		assertThat(this.client.getLargestClockOffset()).isLessThan(TTL);
	}

	@Test
	void givenANodesClockAMinuteAheadWhenTheSharedNodeRestartsEmptyThenTheCheckReportsTheOffset() {
		this.client = redlock(true);
		long first = acquiredOnNodes0And1();
		// Reported by the acquisition that took the fast node, before any token went
		// back.
		assertThat(this.client.getLargestClockOffset()).isGreaterThan(AHEAD.minusSeconds(5)).isLessThanOrEqualTo(AHEAD);
		// Outside the assumption (offset beyond the ttl), the token goes back:
		// docs/safety.md.
		assertThat(acquiredOnNodes1And2AfterNode1Restarted()).isLessThan(first);
	}

	private long acquiredOnNodes0And1() {
		busy(2);
		String owner = owner();
		AcquireResult result = this.client.tryAcquire(KEY, owner, TTL);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.release(KEY, owner)).isTrue();
		redis.endpoint(2).command("DEL", KEY);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private long acquiredOnNodes1And2AfterNode1Restarted() {
		// A restart without persistence, after more than the ttl (Redlock's delayed
		// restart): the node comes back empty.
		redis.endpoint(1).command("FLUSHALL");
		busy(0);
		AcquireResult result = this.client.tryAcquire(KEY, owner(), TTL);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static void busy(int node) {
		redis.endpoint(node).command("SET", KEY, "someone else", "PX", "10000");
	}

	private RedlockClient redlock(boolean firstNodeAhead) {
		List<RedisLockClient> nodes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(redis.endpoint(i));
			this.factories.add(factory);
			RedisLockClient node = (i == 0 && firstNodeAhead) ? new FastClockNode(factory)
					: new RedisLockClient(factory);
			node.setFencingTokensFromClock(false);
			nodes.add(node);
		}
		if (firstNodeAhead) {
			redis.endpoint(0).command("SET", FENCE, String.valueOf(clock(0) + AHEAD.toNanos() / 1000));
		}
		return new RedlockClient(nodes, 0.01, Duration.ofSeconds(1));
	}

	private static long clock(int node) {
		List<?> time = (List<?>) redis.endpoint(node).command("TIME");
		return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000 + Long.parseLong(String.valueOf(time.get(1)));
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

	/**
	 * A node whose clock runs a minute ahead, as its answers tell it.
	 */
	static final class FastClockNode extends RedisLockClient {

		FastClockNode(RedisConnectionFactory connectionFactory) {
			super(connectionFactory);
		}

		@Override
		public Optional<AsyncFencingLockCalls> asyncCalls() {
			return Optional.empty();
		}

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			AcquireResult result = super.tryAcquire(key, ownerToken, ttl);
			if (result instanceof AcquireResult.Acquired acquired) {
				return new AcquireResult.Acquired(acquired.fencingToken(),
						acquired.clockMicros() + AHEAD.toNanos() / 1000);
			}
			return result;
		}

	}

}
