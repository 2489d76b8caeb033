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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link RedlockClient} over Lettuce nodes calls them from the caller's thread, all at
 * once, and raises fencing counters only where they are behind: three real redis-server
 * processes, whose command statistics count the scripts each one ran.
 */
class RedlockAsyncIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(300);

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+),");

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(3);

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
		for (int i = 0; i < 3; i++) {
			redis.server(i).ensureRunning();
			if (redis.server(i).isPaused()) {
				redis.server(i).resume();
			}
		}
	}

	@Test
	void givenTheNodeThreadsAreStoppedWhenLockingAndUnlockingThenTheCallerItselfCallsTheNodes() {
		// No thread is left to hand a node call to: only calls made from the caller work.
		this.client.close();
		String owner = owner();
		AcquireResult acquired = this.client.tryAcquire("k", owner, TTL);
		assertThat(acquired).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(lockHolders("k")).isEqualTo(3);
		assertThat(this.client.release("k", owner)).isTrue();
		assertThat(lockHolders("k")).isZero();
	}

	@Test
	void givenNodesWhoseCountersAgreeWhenLockingAndUnlockingThenEachNodeRunsOnlyAcquireAndRelease() {
		lockAndUnlock("k");
		resetStats();
		lockAndUnlock("k");
		assertThat(evalshaCalls()).containsExactly(2L, 2L, 2L);
	}

	@Test
	void givenOneNodeAheadWhenLockingThenOnlyTheNodesBelowItAreRaised() {
		lockAndUnlock("k");
		// Ahead of the clock by more than the test takes: a node's token is at least its
		// clock rounded down to 0.1 s, which would pass a counter only 1 ms ahead.
		long ahead = counter(0) + 60_000_000;
		redis.endpoint(0).command("SET", fenceKey(0), String.valueOf(ahead));
		resetStats();
		assertThat(lockAndUnlock("k")).isEqualTo(ahead + 1);
		assertThat(evalshaCalls()).containsExactly(2L, 3L, 3L);
		resetStats();
		assertThat(lockAndUnlock("k")).isEqualTo(ahead + 2);
		assertThat(evalshaCalls()).containsExactly(2L, 2L, 2L);
	}

	@Test
	void givenTheOnlyNodeAtTheHighestTokenIsLostThenTheNextTokenIsStillGreater() {
		lockAndUnlock("k");
		long ahead = counter(0) + 1000;
		redis.endpoint(0).command("SET", fenceKey(0), String.valueOf(ahead));
		long token = lockAndUnlock("k");
		// The other two nodes are a majority without node 0: their counters must have
		// been raised to its token, or the next token would go back.
		redis.server(0).kill();
		assertThat(lockAndUnlock("k")).isGreaterThan(token);
	}

	@Test
	void givenOneNodeBehindWhenLockingRepeatedlyThenTokensStrictlyIncrease() {
		long previous = lockAndUnlock("k");
		for (int round = 0; round < 9; round++) {
			int behind = round % 3;
			redis.endpoint(behind).command("SET", fenceKey(behind), "1");
			long token = lockAndUnlock("k");
			assertThat(token).as("token of round %d", round).isGreaterThan(previous);
			previous = token;
		}
	}

	@Test
	void givenAFrozenNodeWhenLockingThenTheCallerReturnsInBoundedTimeAndNothingIsLeftBehind() throws Exception {
		lockAndUnlock("k");
		redis.server(0).pause();
		String owner = owner();
		long start = System.nanoTime();
		assertThat(this.client.tryAcquire("k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(System.nanoTime() - start).isLessThan(NODE_TIMEOUT.toNanos() * 2 + TimeUnit.SECONDS.toNanos(2));
		assertThat(this.client.release("k", owner)).isTrue();
		redis.server(0).resume();
		// The frozen node runs the acquire and then the release it was sent, in order.
		assertThat(lockHoldersSettleAtZero("k")).isTrue();
	}

	@Test
	void givenAMajorityFrozenWhenLockingThenTheCallerFailsInBoundedTimeAndNothingIsLeftBehind() throws Exception {
		lockAndUnlock("k");
		redis.server(0).pause();
		redis.server(1).pause();
		long start = System.nanoTime();
		Throwable failure = catchThrowable(() -> this.client.tryAcquire("k", owner(), TTL));
		assertThat(failure).isInstanceOf(LockBackendException.class)
			.hasMessageContaining("of 3 Redlock nodes answered");
		assertThat(System.nanoTime() - start).isLessThan(NODE_TIMEOUT.toNanos() * 4 + TimeUnit.SECONDS.toNanos(2));
		assertThat(lockHolders("k")).isZero();
		redis.server(0).resume();
		redis.server(1).resume();
		assertThat(lockHoldersSettleAtZero("k")).isTrue();
	}

	@Test
	void givenAnInterruptedCallerWhenLockingThenNoNodeKeepsTheLockAndTheInterruptIsKept() throws Exception {
		lockAndUnlock("k");
		String owner = owner();
		AcquireResult result = null;
		Thread.currentThread().interrupt();
		try {
			result = this.client.tryAcquire("k", owner, TTL);
		}
		catch (LockBackendException ex) {
			// The nodes' replies were not waited for: none counts as answered.
		}
		finally {
			assertThat(Thread.interrupted()).as("interrupt kept").isTrue();
		}
		if (result instanceof AcquireResult.Acquired) {
			// Every reply had come in before the wait even started.
			this.client.release("k", owner);
		}
		assertThat(lockHoldersSettleAtZero("k")).isTrue();
	}

	private long lockAndUnlock(String key) {
		String owner = owner();
		AcquireResult result = this.client.tryAcquire(key, owner, TTL);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.release(key, owner)).isTrue();
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static void resetStats() {
		for (int i = 0; i < 3; i++) {
			redis.endpoint(i).command("CONFIG", "RESETSTAT");
		}
	}

	private static List<Long> evalshaCalls() {
		return java.util.stream.IntStream.range(0, 3).mapToObj((i) -> {
			String info = (String) redis.endpoint(i).command("INFO", "commandstats");
			Matcher calls = EVALSHA_CALLS.matcher(info);
			return calls.find() ? Long.parseLong(calls.group(1)) : 0L;
		}).toList();
	}

	private static String fenceKey(int node) {
		List<?> keys = (List<?>) redis.endpoint(node).command("KEYS", "*fence*");
		assertThat(keys).hasSize(1);
		return (String) keys.get(0);
	}

	private static long counter(int node) {
		return Long.parseLong((String) redis.endpoint(node).command("GET", fenceKey(node)));
	}

	private static int lockHolders(String key) {
		int holders = 0;
		for (int i = 0; i < 3; i++) {
			if (!redis.server(i).isPaused() && redis.server(i).isRunning()
					&& (Long) redis.endpoint(i).command("EXISTS", key) == 1L) {
				holders++;
			}
		}
		return holders;
	}

	private static boolean lockHoldersSettleAtZero(String key) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (System.nanoTime() < deadline) {
			if (lockHolders(key) == 0) {
				// Still none a moment later: no late acquire was waiting to run.
				Thread.sleep(500);
				return lockHolders(key) == 0;
			}
			Thread.sleep(50);
		}
		return false;
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
