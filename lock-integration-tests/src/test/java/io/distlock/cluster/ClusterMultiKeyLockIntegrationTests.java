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

package io.distlock.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import io.distlock.LockTemplate;
import io.distlock.MultiLockHandle;
import io.distlock.MultiLockRequest;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that a lock of several keys works on Redis Cluster when its keys hash to
 * different slots, owned by different primaries: each key is taken by a script on its own
 * primary, in the keys' global order, all or none.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ClusterMultiKeyLockIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 0);

	private final Map<RedisServer, RespConnection> connections = new HashMap<>();

	private ClusterApplication first;

	private ClusterApplication second;

	@BeforeEach
	void startApplications() {
		this.first = ClusterApplication.start(redis.cluster());
		this.second = ClusterApplication.start(redis.cluster());
	}

	@AfterEach
	void closeApplications() {
		this.connections.values().forEach(RespConnection::close);
		this.first.close();
		this.second.close();
	}

	@Test
	void keysOfDifferentSlotsAreAllHeldOnTheirPrimariesAndAllReleased() {
		List<String> keys = oneKeyPerPrimary("all-");
		assertThat(keys.stream().map((key) -> RedisCluster.slot("lock:" + key)).distinct()).hasSize(3);
		List<String> reversed = new ArrayList<>(keys);
		Collections.reverse(reversed);
		this.first.template.executeAll(MultiLockRequest.of(reversed, TTL, Duration.ZERO), (locks) -> {
			assertThat(locks.keys()).containsExactlyElementsOf(keys.stream().sorted().toList());
			for (String key : keys) {
				assertThat(command(owner(key), "EXISTS", "lock:" + key)).as("held on its primary: %s", key)
					.isEqualTo(1L);
				assertThat(locks.fencingToken(key)).isPositive();
			}
			assertThat(this.second.template.tryAcquire(keys.get(1), TTL, Duration.ZERO)).isEmpty();
			return null;
		});
		for (String key : keys) {
			assertThat(command(owner(key), "EXISTS", "lock:" + key)).as("released on its primary: %s", key)
				.isEqualTo(0L);
		}
	}

	@Test
	void busyKeyOnOnePrimaryLeavesTheKeysOfTheOthersFree() {
		List<String> keys = oneKeyPerPrimary("busy-").stream().sorted().toList();
		String last = keys.get(2);
		try (LockHandle holder = this.second.template.tryAcquire(last, TTL, Duration.ZERO).orElseThrow()) {
			assertThat(this.first.template.tryAcquireAll(MultiLockRequest.of(keys, TTL, Duration.ZERO))).isEmpty();
			for (String key : keys.subList(0, 2)) {
				assertThat(command(owner(key), "EXISTS", "lock:" + key)).as("given back: %s", key).isEqualTo(0L);
			}
			assertThat(holder.isHeld()).isTrue();
		}
	}

	@Test
	void overlappingCallsInOppositeOrdersFromTwoApplicationsNeverOverlapOnAKeyOfAnySlot() throws Exception {
		List<String> keys = oneKeyPerPrimary("shared-");
		String a = keys.get(0);
		String b = keys.get(1);
		String c = keys.get(2);
		List<List<String>> keySets = List.of(List.of(a, b), List.of(b, a), List.of(b, c), List.of(c, a),
				List.of(c, b, a));
		Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();
		Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();
		Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
		AtomicInteger overlaps = new AtomicInteger();
		int threads = 6;
		int perThread = 10;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				LockTemplate template = ((t % 2) == 0) ? this.first.template : this.second.template;
				MultiLockRequest request = MultiLockRequest.of(keySets.get(t % keySets.size()), TTL,
						Duration.ofSeconds(60));
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
				future.get(80, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
		for (String key : keys) {
			assertThat(of(counters, key).get()).as("sections on %s", key).isEqualTo(of(runs, key).get()).isPositive();
			assertThat(command(owner(key), "EXISTS", "lock:" + key)).as("left behind: %s", key).isEqualTo(0L);
		}
	}

	@Test
	void readLocksOfKeysOfDifferentSlotsAreSharedAndKeepWritersOut() {
		List<String> keys = oneKeyPerPrimary("read-");
		MultiLockRequest read = MultiLockRequest.of(keys, TTL, Duration.ZERO).withMode(LockMode.READ);
		try (MultiLockHandle one = this.first.template.tryAcquireAll(read).orElseThrow();
				MultiLockHandle other = this.second.template.tryAcquireAll(read).orElseThrow()) {
			assertThat(this.first.template.tryAcquireAll(MultiLockRequest.of(keys, TTL, Duration.ZERO))).isEmpty();
			assertThat(one.isHeld()).isTrue();
			assertThat(other.isHeld()).isTrue();
		}
		this.first.template.tryAcquireAll(MultiLockRequest.of(keys, TTL, Duration.ZERO)).orElseThrow().close();
	}

	private static AtomicInteger of(Map<String, AtomicInteger> values, String key) {
		return values.computeIfAbsent(key, (k) -> new AtomicInteger());
	}

	private List<String> oneKeyPerPrimary(String prefix) {
		Map<RedisServer, String> keys = new LinkedHashMap<>();
		for (int i = 0; keys.size() < redis.cluster().primaries().size(); i++) {
			keys.putIfAbsent(redis.cluster().primaryForKey("lock:" + prefix + i), prefix + i);
		}
		return List.copyOf(keys.values());
	}

	private RedisServer owner(String key) {
		return redis.cluster().primaryForKey("lock:" + key);
	}

	private Object command(RedisServer node, String... args) {
		RespConnection connection = this.connections.computeIfAbsent(node,
				(server) -> server.connect(RespConnection.DEFAULT_TIMEOUT));
		return connection.command(args);
	}

}
