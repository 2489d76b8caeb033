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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockState;
import io.distlock.store.Renewal;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that every lock script runs on Redis Cluster for keys of every shape, spread
 * over all primaries, with no cross-slot error: the names of one lock share its key's
 * slot.
 */
class ClusterLockClientIntegrationTests {

	private static final Duration TTL = Duration.ofMinutes(1);

	private static final Duration QUEUE_TIMEOUT = Duration.ofSeconds(30);

	private static final char SEPARATOR = '\u001f';

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);

	private final Map<RedisServer, RespConnection> connections = new HashMap<>();

	private ClusterApplication application;

	@BeforeEach
	void startApplication() {
		this.application = ClusterApplication.start(redis.cluster());
	}

	@AfterEach
	void closeApplication() {
		this.connections.values().forEach(RespConnection::close);
		this.application.close();
	}

	@ParameterizedTest(name = "sharded release messages: {0}")
	@ValueSource(booleans = { true, false })
	void everyScriptWorksOnKeysOfEveryShapeSpreadOverAllPrimaries(boolean sharded) {
		RedisLockClient client = this.application.client;
		client.setShardedReleaseMessages(sharded);
		List<String> keys = keys(60);
		Set<RedisServer> owners = new HashSet<>();
		Set<Integer> slots = new HashSet<>();
		List<Renewal> renewals = new ArrayList<>();
		for (String key : keys) {
			RedisServer owner = redis.cluster().primaryForKey(key);
			owners.add(owner);
			slots.add(RedisCluster.slot(key));
			long first = acquired(client.tryAcquire(key, "a", TTL));
			assertThat(client.tryAcquireFair(key, "b", TTL, QUEUE_TIMEOUT)).as(key)
				.isInstanceOf(AcquireResult.Busy.class);
			assertThat(client.renew(key, "a", TTL)).as(key).isTrue();
			assertThat(client.isHeld(key, "a")).as(key).isTrue();
			assertThat(client.isHeld(key, "b")).as(key).isFalse();
			assertThat(namesOfLockIn(owner, key)).as("names of %s on the owner of its slot", key)
				.containsExactlyInAnyOrder(key, derived("fence", key), derived("queue", key),
						derived("queue-timeouts", key), derived("waiters", key));
			assertThat(client.release(key, "a")).as(key).isTrue();
			long second = acquired(client.tryAcquireFair(key, "b", TTL, QUEUE_TIMEOUT));
			assertThat(second).as(key).isGreaterThan(first);
			assertThat(client.raiseFencingToken(key, "b", second + 1000)).as(key).isTrue();
			assertThat(client.tryAcquireFair(key, "c", TTL, QUEUE_TIMEOUT)).as(key)
				.isInstanceOf(AcquireResult.Busy.class);
			assertThat(client.leaveQueue(key, "c")).as(key).isTrue();
			renewals.add(new Renewal(key, "b", TTL));
		}
		assertThat(owners).as("primaries holding locks")
			.containsExactlyInAnyOrderElementsOf(redis.cluster().primaries());
		assertThat(slots).as("slots of one renewAll batch").hasSizeGreaterThan(200);
		boolean[] renewed = client.renewAll(renewals);
		for (int i = 0; i < keys.size(); i++) {
			assertThat(renewed[i]).as("renewed %s", keys.get(i)).isTrue();
		}
		for (String key : keys) {
			assertThat(client.release(key, "b")).as(key).isTrue();
			assertThat(client.isHeld(key, "b")).as(key).isFalse();
			assertThat(acquired(client.tryAcquire(key, "d", TTL))).as("token after the raise of %s", key)
				.isGreaterThan(1000);
			assertThat(client.release(key, "d")).as(key).isTrue();
		}
	}

	@ParameterizedTest(name = "sharded release messages: {0}")
	@ValueSource(booleans = { true, false })
	void inspectAndForceReleaseWorkOnKeysOfEveryShapeSpreadOverAllPrimaries(boolean sharded) {
		RedisLockClient client = this.application.client;
		client.setShardedReleaseMessages(sharded);
		Set<RedisServer> owners = new HashSet<>();
		for (String key : keys(10)) {
			owners.add(redis.cluster().primaryForKey(key));
			long first = acquired(client.tryAcquire(key, "a", TTL));
			client.tryAcquireFair(key, "b", TTL, QUEUE_TIMEOUT);
			LockState state = client.inspect(key);
			assertThat(state.held()).as(key).isTrue();
			assertThat(state.lastFencingToken()).as(key).isEqualTo(first);
			assertThat(state.fairWaiters()).as(key).isEqualTo(1);
			assertThat(client.forceRelease(key)).as(key).isTrue();
			assertThat(client.inspect(key).held()).as(key).isFalse();
			assertThat(acquired(client.tryAcquireFair(key, "b", TTL, QUEUE_TIMEOUT))).as(key).isGreaterThan(first);
			assertThat(client.forceRelease(key)).as(key).isTrue();
			assertThat(client.forceRelease(key)).as(key).isFalse();
		}
		assertThat(owners).as("primaries holding locks")
			.containsExactlyInAnyOrderElementsOf(redis.cluster().primaries());
	}

	@ParameterizedTest(name = "sharded release messages: {0}")
	@ValueSource(booleans = { true, false })
	void permitsWorkOnKeysOfEveryShapeSpreadOverAllPrimaries(boolean sharded) {
		RedisLockClient client = this.application.client;
		client.setShardedReleaseMessages(sharded);
		List<String> keys = keys(20);
		Set<RedisServer> owners = new HashSet<>();
		List<Renewal> renewals = new ArrayList<>();
		for (String key : keys) {
			RedisServer owner = redis.cluster().primaryForKey(key);
			owners.add(owner);
			String leaseKey = client.permitLeaseKey(key);
			long first = acquired(client.tryAcquirePermit(key, "a", TTL, 2));
			assertThat(acquired(client.tryAcquirePermit(key, "b", TTL, 2))).as(key).isGreaterThan(first);
			assertThat(client.tryAcquirePermit(key, "c", TTL, 2)).as(key).isInstanceOf(AcquireResult.Busy.class);
			assertThat(client.renew(leaseKey, "a", TTL)).as(key).isTrue();
			assertThat(client.isHeld(leaseKey, "b")).as(key).isTrue();
			assertThat(client.isHeld(leaseKey, "c")).as(key).isFalse();
			assertThat(namesOfLockIn(owner, key)).as("names of %s on the owner of its slot", key)
				.contains(derived("permits", key));
			assertThat(client.releasePermit(key, "a")).as(key).isTrue();
			renewals.add(new Renewal(leaseKey, "b", TTL));
			renewals.add(new Renewal(key, "b", TTL));
		}
		assertThat(owners).as("primaries holding permits")
			.containsExactlyInAnyOrderElementsOf(redis.cluster().primaries());
		boolean[] renewed = client.renewAll(renewals);
		for (int i = 0; i < renewals.size(); i++) {
			assertThat(renewed[i]).as("renewed %s", renewals.get(i)).isEqualTo(i % 2 == 0);
		}
		for (String key : keys) {
			assertThat(client.release(client.permitLeaseKey(key), "b")).as(key).isTrue();
			assertThat(namesOfLockIn(redis.cluster().primaryForKey(key), key)).as(key)
				.doesNotContain(derived("permits", key));
		}
	}

	@ParameterizedTest(name = "sharded release messages: {0}")
	@ValueSource(booleans = { true, false })
	void readHoldsWorkOnKeysOfEveryShapeSpreadOverAllPrimaries(boolean sharded) {
		RedisLockClient client = this.application.client;
		client.setShardedReleaseMessages(sharded);
		Set<RedisServer> owners = new HashSet<>();
		List<Renewal> renewals = new ArrayList<>();
		List<String> keys = keys(10);
		for (String key : keys) {
			RedisServer owner = redis.cluster().primaryForKey(key);
			owners.add(owner);
			assertThat(client.tryAcquireRead(key, "r1", TTL)).as(key).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(client.tryAcquireRead(key, "r2", TTL)).as(key).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(client.tryAcquire(key, "w", TTL)).as(key).isInstanceOf(AcquireResult.Busy.class);
			assertThat(client.tryAcquireFair(key, "f", TTL, QUEUE_TIMEOUT)).as(key)
				.isInstanceOf(AcquireResult.Busy.class);
			assertThat(client.tryAcquireRead(key, "r3", TTL)).as("reader after a waiting writer on %s", key)
				.isInstanceOf(AcquireResult.Busy.class);
			assertThat(client.renew(key, "r1", TTL)).as(key).isTrue();
			assertThat(client.isHeld(key, "r1")).as(key).isTrue();
			assertThat(namesOfLockIn(owner, key)).as("names of %s on the owner of its slot", key)
				.contains(derived("read-holds", key), derived("writer-waiting", key));
			renewals.add(new Renewal(key, "r1", TTL));
			renewals.add(new Renewal(key, "r2", TTL));
		}
		assertThat(owners).as("primaries holding locks")
			.containsExactlyInAnyOrderElementsOf(redis.cluster().primaries());
		boolean[] renewed = client.renewAll(renewals);
		for (int i = 0; i < renewed.length; i++) {
			assertThat(renewed[i]).as("renewed %s", renewals.get(i)).isTrue();
		}
		for (String key : keys) {
			assertThat(client.releaseRead(key, "r1")).as(key).isTrue();
			assertThat(client.releaseRead(key, "r2")).as(key).isTrue();
			assertThat(client.tryAcquire(key, "w", TTL)).as(key).isInstanceOf(AcquireResult.Acquired.class);
			assertThat(client.release(key, "w")).as(key).isTrue();
		}
	}

	/**
	 * Lock resources as the template makes them ("lock:" and the key), of every shape
	 * that hashes differently: plain, with a hash tag, with a stray '}', with an empty
	 * tag, and with characters beyond ASCII.
	 */
	private static List<String> keys(int perShape) {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < perShape; i++) {
			keys.add("lock:order-" + i);
			keys.add("lock:{customer-" + i + "}.orders");
			keys.add("lock:a}b-" + i);
			keys.add("lock:{}x-" + i);
			keys.add("lock:заказ-" + i + "-注文-\uD83D\uDD12");
		}
		return keys;
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static String derived(String type, String key) {
		return type + SEPARATOR + key;
	}

	/**
	 * The lock key and the names derived from it (without their hash tag) among the keys
	 * that the given node stores in the key's slot.
	 */
	private List<String> namesOfLockIn(RedisServer node, String key) {
		RespConnection connection = this.connections.computeIfAbsent(node,
				(server) -> server.connect(RespConnection.DEFAULT_TIMEOUT));
		List<?> inSlot = (List<?>) connection.command("CLUSTER", "GETKEYSINSLOT",
				Integer.toString(RedisCluster.slot(key)), "1000");
		List<String> names = new ArrayList<>();
		for (Object name : inSlot) {
			String text = (String) name;
			if (text.equals(key)) {
				names.add(text);
			}
			else if (text.endsWith(SEPARATOR + key) && text.indexOf(SEPARATOR) > 0) {
				names.add(text.substring(text.indexOf(SEPARATOR) + 1));
			}
		}
		return names;
	}

}
