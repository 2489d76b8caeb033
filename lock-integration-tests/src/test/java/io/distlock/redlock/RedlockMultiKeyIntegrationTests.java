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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockHandle;
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.MultiLockRequest;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Proves that {@link LockTemplate} locks several keys at once over a
 * {@link RedlockClient}, each key a Redlock of its own, and that it refuses the kinds of
 * locks Redlock cannot hold (read locks, permits) with a message naming the store.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedlockMultiKeyIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(3);

	private Application first;

	private Application second;

	@BeforeEach
	void startApplications() {
		this.first = new Application();
		this.second = new Application();
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
	}

	@Test
	void everyKeyIsHeldOnEveryNodeWhileTheCallbackRunsAndReleasedAfterwards() {
		this.first.template.executeAll(MultiLockRequest.of(List.of("k2", "k1"), TTL, Duration.ZERO), (locks) -> {
			assertThat(locks.keys()).containsExactly("k1", "k2");
			for (RedisEndpoint node : redis.endpoints()) {
				assertThat(node.command("EXISTS", "lock:k1", "lock:k2")).isEqualTo(2L);
			}
			assertThat(locks.fencingToken("k1")).isPositive();
			assertThat(locks.fencingToken("k2")).isPositive();
			assertThat(this.second.template.tryAcquire("k2", TTL, Duration.ZERO)).isEmpty();
			return null;
		});
		for (RedisEndpoint node : redis.endpoints()) {
			assertThat(node.command("EXISTS", "lock:k1", "lock:k2")).isEqualTo(0L);
		}
	}

	@Test
	void busyKeyMakesTryAcquireAllReturnEmptyAndGivesBackTheKeysTakenBeforeIt() {
		try (LockHandle holder = this.second.template.tryAcquire("b3", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(this.first.template
				.tryAcquireAll(MultiLockRequest.of(List.of("b3", "b1", "b2"), TTL, Duration.ZERO))).isEmpty();
			for (RedisEndpoint node : redis.endpoints()) {
				assertThat(node.command("EXISTS", "lock:b1", "lock:b2")).isEqualTo(0L);
			}
			assertThat(holder.isHeld()).isTrue();
		}
	}

	@Test
	void overlappingCallsInOppositeOrdersFromTwoApplicationsFinishAndNeverOverlapOnAKey() throws Exception {
		List<List<String>> keySets = List.of(List.of("a", "b"), List.of("b", "a"), List.of("b", "c"), List.of("c", "a"),
				List.of("c", "b", "a"));
		Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();
		Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();
		Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
		AtomicInteger overlaps = new AtomicInteger();
		int threads = 6;
		int perThread = 8;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				LockTemplate template = ((t % 2) == 0) ? this.first.template : this.second.template;
				MultiLockRequest request = MultiLockRequest.of(keySets.get(t % keySets.size()), TTL,
						Duration.ofSeconds(40));
				work.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						template.executeAll(request, (locks) -> {
							for (String key : locks.keys()) {
								if (of(inside, key).incrementAndGet() != 1) {
									overlaps.incrementAndGet();
								}
							}
							for (String key : locks.keys()) {
								// Loses updates unless the holders of a key are alone.
								AtomicInteger counter = of(counters, key);
								int value = counter.get();
								Thread.yield();
								counter.set(value + 1);
								of(runs, key).incrementAndGet();
							}
							for (String key : locks.keys()) {
								of(inside, key).decrementAndGet();
							}
							return null;
						});
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(50, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
		for (String key : List.of("a", "b", "c")) {
			assertThat(of(counters, key).get()).as("sections on %s", key).isEqualTo(of(runs, key).get()).isPositive();
		}
		for (RedisEndpoint node : redis.endpoints()) {
			assertThat(node.command("EXISTS", "lock:a", "lock:b", "lock:c")).isEqualTo(0L);
		}
	}

	@Test
	void templateOverRedlockSupportsNeitherReadLocksNorPermits() {
		assertThat(this.first.template.getEngine().supportsReadLocks()).isFalse();
		assertThat(this.first.template.getEngine().supportsPermits()).isFalse();
	}

	@Test
	void readRequestsFailNamingTheStoreAndTakeNothing() {
		String store = RedlockClient.class.getName();
		assertThatIllegalArgumentException().isThrownBy(
				() -> this.first.template.tryAcquire(LockRequest.of("r", TTL, Duration.ZERO).withMode(LockMode.READ)))
			.withMessageContaining(store)
			.withMessageContaining("READ");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.first.template
				.execute(LockRequest.of("r", TTL, Duration.ZERO).withMode(LockMode.READ), () -> "ran"))
			.withMessageContaining(store);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.first.template
				.tryAcquireAll(MultiLockRequest.of(List.of("r", "s"), TTL, Duration.ZERO).withMode(LockMode.READ)))
			.withMessageContaining(store)
			.withMessageContaining("READ");
		assertThatIllegalArgumentException().isThrownBy(() -> this.first.template.executeAll(
				MultiLockRequest.of(List.of("r", "s"), TTL, Duration.ZERO).withMode(LockMode.READ), (locks) -> "ran"))
			.withMessageContaining(store);
		for (RedisEndpoint node : redis.endpoints()) {
			assertThat(node.command("DBSIZE")).as("keys written").isEqualTo(0L);
		}
	}

	@Test
	void permitRequestsFailNamingTheStore() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.first.template.tryAcquire(LockRequest.of("p", TTL, Duration.ZERO).withPermits(3)))
			.withMessageContaining(RedlockClient.class.getName())
			.withMessageContaining("permits");
		for (RedisEndpoint node : redis.endpoints()) {
			assertThat(node.command("DBSIZE")).as("keys written").isEqualTo(0L);
		}
	}

	private static AtomicInteger of(Map<String, AtomicInteger> values, String key) {
		return values.computeIfAbsent(key, (k) -> new AtomicInteger());
	}

	/**
	 * One application locking through a template over Redlock on the three servers.
	 */
	private static final class Application implements AutoCloseable {

		private final RedlockNodes nodes = RedlockNodes.connect(redis.uris(), Duration.ofSeconds(1));

		private final RedlockClient client = new RedlockClient(this.nodes.clients(), 0.01, Duration.ofSeconds(1));

		private final LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1));

		private final LockTemplate template = new LockTemplate(new LockEngine(this.client,
				new LockWaiter(Duration.ofMillis(20), Duration.ofMillis(200)), LockSettings.defaults(), this.renewer));

		@Override
		public void close() {
			this.renewer.close();
			this.client.close();
			this.nodes.close();
		}

	}

}
