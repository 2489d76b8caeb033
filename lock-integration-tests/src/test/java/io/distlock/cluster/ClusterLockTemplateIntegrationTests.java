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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.store.AcquireResult;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisVersion;
import io.distlock.test.RespConnection;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Proves that two applications lock, wait, queue fairly and renew on Redis Cluster as on
 * one server, and that a release wakes waiters through its shard alone.
 */
class ClusterLockTemplateIntegrationTests {

	private static final Duration TTL = Duration.ofMinutes(1);

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofMinutes(1);

	private static final char SEPARATOR = '\u001f';

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);

	private final Map<RedisServer, RespConnection> connections = new HashMap<>();

	private ClusterApplication first;

	private ClusterApplication second;

	@BeforeEach
	void startApplications() {
		this.first = ClusterApplication.start(redis.cluster());
		this.second = ClusterApplication.start(redis.cluster(), new LockWaiter(LONG_BACKOFF, LONG_BACKOFF));
	}

	@AfterEach
	void closeApplications() {
		this.connections.values().forEach(RespConnection::close);
		this.first.close();
		this.second.close();
	}

	@Test
	void twoApplicationsNeverHoldALockAtTheSameTimeOnKeysOfEveryPrimary() throws Exception {
		ClusterApplication polling = ClusterApplication.start(redis.cluster());
		try {
			ClusterApplication[] applications = { this.first, polling };
			List<String> keys = oneKeyPerPrimary("shared-");
			List<CompletableFuture<CriticalSections>> runs = new ArrayList<>();
			for (String key : keys) {
				AtomicInteger turn = new AtomicInteger();
				runs.add(CompletableFuture.supplyAsync(() -> {
					try {
						return CriticalSections.run(4, 25,
								(section) -> applications[turn.getAndIncrement() % 2].template.execute(key,
										Duration.ofSeconds(10), Duration.ofSeconds(30), () -> {
											section.run();
											return null;
										}));
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}, (task) -> new Thread(task).start()));
			}
			for (int i = 0; i < keys.size(); i++) {
				CriticalSections sections = runs.get(i).get(2, TimeUnit.MINUTES);
				assertThat(sections.overlaps()).as("overlaps on %s", keys.get(i)).isZero();
				assertThat(sections.count()).as("sections on %s", keys.get(i)).isEqualTo(100);
			}
		}
		finally {
			polling.close();
		}
	}

	@Test
	void waiterIsWokenByTheReleaseLongBeforeItsBackoff() throws Exception {
		LockHandle holder = this.first.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		CompletableFuture<Long> acquiredAt = acquireInThread(this.second, LockRequest.of("k", TTL, LONG_BACKOFF));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.second.waiter.waiting() == 1);
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt).isLessThan(TimeUnit.SECONDS.toNanos(2));
	}

	@Test
	void reactiveWaiterIsWokenByTheShardedReleaseLongBeforeItsBackoff() throws Exception {
		LockHandle holder = this.first.template.tryAcquire("reactive", TTL, Duration.ZERO).orElseThrow();
		CompletableFuture<Long> acquiredAt = this.second.reactiveTemplate
			.execute("reactive", TTL, LONG_BACKOFF, Mono.fromSupplier(System::nanoTime))
			.toFuture();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.second.waiter.isWaitedFor("lock:reactive"));
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt).isLessThan(TimeUnit.SECONDS.toNanos(2));
	}

	@Test
	void reactiveAndBlockingApplicationsNeverOverlapOnKeysOfEveryPrimary() {
		for (String key : oneKeyPerPrimary("reactive-")) {
			AtomicInteger inside = new AtomicInteger();
			AtomicInteger overlaps = new AtomicInteger();
			Runnable enter = () -> {
				if (inside.incrementAndGet() != 1) {
					overlaps.incrementAndGet();
				}
			};
			Runnable leave = inside::decrementAndGet;
			List<Integer> done = Flux.range(0, 40)
				.flatMap((i) -> (i % 2 == 0)
						? this.first.reactiveTemplate.execute(key, Duration.ofSeconds(10), Duration.ofSeconds(30),
								Mono.fromRunnable(enter)
									.then(Mono.delay(Duration.ofMillis(2)))
									.then(Mono.fromRunnable(leave))
									.thenReturn(i))
						: Mono.fromCallable(() -> this.second.template.execute(key, Duration.ofSeconds(10),
								Duration.ofSeconds(30), () -> {
									enter.run();
									sleep(Duration.ofMillis(2));
									leave.run();
									return i;
								}))
							.subscribeOn(Schedulers.boundedElastic()))
				.collectList()
				.block(Duration.ofMinutes(1));
			assertThat(done).as("sections on %s", key).hasSize(40);
			assertThat(overlaps).as("overlaps on %s", key).hasValue(0);
		}
	}

	@Test
	void waiterThatStartsWaitingWhileTheNotifierIsStillConnectingIsWokenByTheRelease() throws Exception {
		LockHandle holder = this.first.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		try (ClusterApplication starting = ClusterApplication.start(redis.cluster(),
				new LockWaiter(LONG_BACKOFF, LONG_BACKOFF))) {
			CompletableFuture<Long> acquiredAt = acquireInThread(starting, LockRequest.of("k", TTL, LONG_BACKOFF));
			await().atMost(Duration.ofSeconds(5)).until(() -> starting.waiter.waiting() == 1);
			if (RedisVersion.majorVersion() >= 7) {
				RedisServer owner = redis.cluster().primaryForKey("lock:k");
				await().atMost(Duration.ofSeconds(5)).until(() -> shardSubscribers(owner, channel("lock:k")) == 1);
			}
			long releasedAt = System.nanoTime();
			holder.close();
			assertThat(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt).isLessThan(TimeUnit.SECONDS.toNanos(2));
		}
	}

	@Test
	void waitingApplicationSubscribesToTheShardedChannelOfTheLockOnlyWhileItWaits() throws Exception {
		assumeThat(RedisVersion.majorVersion()).as("sharded pub/sub needs Redis 7").isGreaterThanOrEqualTo(7);
		RedisServer owner = redis.cluster().primaryForKey("lock:k");
		String channel = channel("lock:k");
		assertThat(shardSubscribers(owner, channel)).isZero();
		LockHandle holder = this.first.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		CompletableFuture<Long> acquiredAt = acquireInThread(this.second, LockRequest.of("k", TTL, LONG_BACKOFF));
		await().atMost(Duration.ofSeconds(5)).until(() -> shardSubscribers(owner, channel) == 1);
		long releasedAt = System.nanoTime();
		holder.close();
		assertThat(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt).isLessThan(TimeUnit.SECONDS.toNanos(2));
		await().atMost(Duration.ofSeconds(5)).until(() -> shardSubscribers(owner, channel) == 0);
	}

	@Test
	void shardedReleaseIsNotHeardOnOtherPrimariesWhereAClassicOneIs() {
		assumeThat(RedisVersion.majorVersion()).as("sharded pub/sub needs Redis 7").isGreaterThanOrEqualTo(7);
		RedisServer owner = redis.cluster().primaryForKey("lock:{k}sharded");
		RedisServer other = redis.cluster()
			.primaries()
			.stream()
			.filter((p) -> !p.equals(owner))
			.findFirst()
			.orElseThrow();
		try (RespConnection listener = other.connect(Duration.ofSeconds(5))) {
			listener.command("PSUBSCRIBE", "distlock:released:*");
			releaseFoundBusy("{k}sharded");
			// Published by the same node on the same slot after the sharded release: if
			// that one reached this node, it would be read first.
			this.first.client.setShardedReleaseMessages(false);
			releaseFoundBusy("{k}classic");
			assertThat(listener.read())
				.isEqualTo(List.of("pmessage", "distlock:released:*", channel("lock:{k}classic"), "lock:{k}classic"));
		}
	}

	@Test
	void shardedReleasesCostTheOtherShardsNothingWhereClassicOnesReachEveryNode() {
		assumeThat(RedisVersion.majorVersion()).as("sharded pub/sub needs Redis 7").isGreaterThanOrEqualTo(7);
		int locks = 100;
		RedisServer owner = redis.cluster().primaryForKey("lock:{traffic}");
		List<RedisServer> shard = new ArrayList<>(redis.cluster().replicasOf(owner));
		List<RedisServer> elsewhere = redis.cluster()
			.nodes()
			.stream()
			.filter((node) -> !node.equals(owner) && !shard.contains(node))
			.toList();
		long[] shardBefore = publishMessagesReceived(shard);
		long[] before = publishMessagesReceived(elsewhere);
		releaseLocks(locks);
		// Every node hears a classic release: once they heard all of them, they would
		// also have heard the sharded ones published before on the same links.
		this.first.client.setShardedReleaseMessages(false);
		releaseLocks(locks);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> publishMessagesReceived(elsewhere)[0] - before[0] >= (long) locks * elsewhere.size());
		long[] after = publishMessagesReceived(elsewhere);
		long[] shardAfter = publishMessagesReceived(shard);
		System.out.printf(
				"%d sharded then %d classic releases: the %d nodes outside the lock's shard received %d classic and %d "
						+ "sharded publish messages; the owner's replica %d classic and %d sharded%n",
				locks, locks, elsewhere.size(), after[0] - before[0], after[1] - before[1],
				shardAfter[0] - shardBefore[0], shardAfter[1] - shardBefore[1]);
		assertThat(after[0] - before[0]).as("classic messages outside the shard")
			.isEqualTo((long) locks * elsewhere.size());
		assertThat(after[1] - before[1]).as("sharded messages outside the shard").isZero();
	}

	@Test
	void fairWaitersOfTwoApplicationsGetTheLockInArrivalOrder() throws Exception {
		RedisServer owner = redis.cluster().primaryForKey("lock:fair");
		String queue = "{lock:fair}" + SEPARATOR + "queue" + SEPARATOR + "lock:fair";
		LockHandle holder = this.first.template.tryAcquire("fair", TTL, Duration.ZERO).orElseThrow();
		List<Integer> order = new CopyOnWriteArrayList<>();
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			int arrival = i;
			ClusterApplication application = (i % 2 == 0) ? this.first : this.second;
			waiters.add(CompletableFuture.runAsync(() -> {
				LockRequest request = LockRequest.of("fair", TTL, Duration.ofSeconds(30)).withFair(true);
				try (LockHandle handle = application.template.tryAcquire(request).orElseThrow()) {
					order.add(arrival);
				}
			}, (task) -> new Thread(task).start()));
			long queued = i + 1;
			await().atMost(Duration.ofSeconds(5)).until(() -> (Long) command(owner, "LLEN", queue) == queued);
		}
		holder.close();
		CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
		assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	}

	@Test
	void leaseOfOneSecondIsRenewedForThreeSecondsAndReleasedAtTheEnd() throws Exception {
		RedisServer owner = redis.cluster().primaryForKey("lock:renewed");
		LockHandle handle = this.first.template.tryAcquire("renewed", Duration.ofSeconds(1), Duration.ZERO)
			.orElseThrow();
		try {
			Thread.sleep(3000);
			assertThat(handle.isHeld()).isTrue();
			assertThat((Long) command(owner, "PTTL", "lock:renewed")).isBetween(1L, 1000L);
		}
		finally {
			handle.close();
		}
		assertThat(command(owner, "EXISTS", "lock:renewed")).isEqualTo(0L);
		assertThat(this.first.renewer.size()).isZero();
	}

	private void releaseLocks(int locks) {
		for (int i = 0; i < locks; i++) {
			releaseFoundBusy("{traffic}" + i);
		}
	}

	/**
	 * Take the lock and release it after the other application found it busy with an
	 * attempt that waits (an attempt that does not is not announced): only such a release
	 * is published.
	 */
	private void releaseFoundBusy(String key) {
		LockHandle held = this.first.template.tryAcquire(key, TTL, Duration.ZERO).orElseThrow();
		assertThat(this.second.client.tryAcquire("lock:" + key, UUID.randomUUID().toString(), TTL))
			.isInstanceOf(AcquireResult.Busy.class);
		held.close();
	}

	/**
	 * The classic and the sharded publish messages that the given nodes received over the
	 * cluster bus.
	 */
	private long[] publishMessagesReceived(List<RedisServer> nodes) {
		long[] received = new long[2];
		for (RedisServer node : nodes) {
			String info = (String) command(node, "CLUSTER", "INFO");
			received[0] += field(info, "cluster_stats_messages_publish_received");
			received[1] += field(info, "cluster_stats_messages_publishshard_received");
		}
		return received;
	}

	private static long field(String info, String name) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(name + ":")) {
				return Long.parseLong(line.substring(name.length() + 1).trim());
			}
		}
		return 0;
	}

	private List<String> oneKeyPerPrimary(String prefix) {
		Map<RedisServer, String> keys = new LinkedHashMap<>();
		for (int i = 0; keys.size() < redis.cluster().primaries().size(); i++) {
			keys.putIfAbsent(redis.cluster().primaryForKey("lock:" + prefix + i), prefix + i);
		}
		return List.copyOf(keys.values());
	}

	private CompletableFuture<Long> acquireInThread(ClusterApplication application, LockRequest request) {
		return CompletableFuture.supplyAsync(() -> {
			try (LockHandle handle = application.template.tryAcquire(request).orElseThrow()) {
				return System.nanoTime();
			}
		}, (task) -> new Thread(task).start());
	}

	private long shardSubscribers(RedisServer node, String channel) {
		List<?> reply = (List<?>) command(node, "PUBSUB", "SHARDNUMSUB", channel);
		return (Long) reply.get(1);
	}

	/**
	 * The release channel of a resource without a hash tag or a stray '}'.
	 */
	private static String channel(String resource) {
		int open = resource.indexOf('{');
		String tag = (open >= 0) ? resource.substring(open + 1, resource.indexOf('}', open)) : resource;
		return "distlock:released:{" + tag + "}" + SEPARATOR + resource;
	}

	private Object command(RedisServer node, String... args) {
		RespConnection connection = this.connections.computeIfAbsent(node,
				(server) -> server.connect(RespConnection.DEFAULT_TIMEOUT));
		return connection.command(args);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
