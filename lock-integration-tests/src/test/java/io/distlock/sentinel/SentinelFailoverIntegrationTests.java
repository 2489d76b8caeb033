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

package io.distlock.sentinel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.distlock.DistributedLockException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locks through Redis Sentinel recover from a failover in the middle of continuous
 * locking: acquired again within a bounded time, waiters woken by releases again, fencing
 * tokens still increasing, and exclusive once the failover is over. Overlaps during the
 * failover itself are reported, not asserted: a failover can lose a lock.
 */
class SentinelFailoverIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(2);

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofSeconds(20);

	// From the end of the failover to the first acquisition: Lettuce reconnects with an
	// exponential backoff, asking the sentinels for the primary each time.
	private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(10);

	private static RedisSentinelGroup group;

	private SentinelApplication first;

	private SentinelApplication second;

	@BeforeAll
	static void startGroup() {
		group = RedisSentinelGroup.start();
	}

	@AfterAll
	static void closeGroup() {
		group.close();
	}

	@BeforeEach
	void startApplications() {
		// A primary killed by the previous test comes back as a replica of the new one.
		group.restore();
		group.primary().flushAll();
		this.first = SentinelApplication.start(group, LONG_BACKOFF);
		this.second = SentinelApplication.start(group, LONG_BACKOFF);
	}

	@AfterEach
	void closeApplications() {
		this.first.close();
		this.second.close();
	}

	@Test
	void locksRecoverFromAForcedFailover() throws Exception {
		RedisServer promoted = lockAcross(group::failover);
		await().atMost(RECOVERY_LIMIT).untilAsserted(() -> assertThat(patternSubscribers(promoted)).isEqualTo(2));
		wokenByReleaseAgain();
		exclusiveAgain();
	}

	@Test
	void locksRecoverFromTheKilledPrimarysFailover() throws Exception {
		RedisServer promoted = lockAcross(group::killPrimaryAndAwaitFailover);
		// Both notifiers lost their connection with the primary and subscribed again on
		// the one the sentinels name now.
		await().atMost(RECOVERY_LIMIT).untilAsserted(() -> assertThat(patternSubscribers(promoted)).isEqualTo(2));
		wokenByReleaseAgain();
		exclusiveAgain();
	}

	/**
	 * Lock continuously from both applications while the failover happens, and return
	 * once locks have been acquired again well after it.
	 */
	private RedisServer lockAcross(Supplier<RedisServer> failover) throws Exception {
		List<LockTemplate> templates = List.of(this.first.template(), this.second.template());
		AtomicInteger calls = new AtomicInteger();
		AtomicBoolean stopped = new AtomicBoolean();
		AtomicInteger ran = new AtomicInteger();
		AtomicInteger failures = new AtomicInteger();
		Set<String> failureKinds = ConcurrentHashMap.newKeySet();
		// Appended while holding the lock: {acquired at, fencing token}.
		List<long[]> acquisitions = new ArrayList<>();
		CompletableFuture<CriticalSections> locking = CompletableFuture.supplyAsync(() -> {
			try {
				return CriticalSections.run(4, 100_000, (section) -> {
					LockTemplate template = templates.get(calls.getAndIncrement() % 2);
					while (!stopped.get()) {
						try {
							Optional<LockHandle> acquired = template.tryAcquire(LockRequest.of("counter", TTL, TTL));
							if (acquired.isPresent()) {
								try (LockHandle handle = acquired.get()) {
									synchronized (acquisitions) {
										acquisitions.add(new long[] { System.nanoTime(), handle.fencingToken() });
									}
									section.run();
									ran.incrementAndGet();
								}
								return;
							}
						}
						catch (DistributedLockException ex) {
							// Redis unreachable or read-only during the failover: try
							// again.
							failures.incrementAndGet();
							failureKinds
								.add(ex.getMessage() + " (" + NestedExceptionUtils.getMostSpecificCause(ex) + ")");
						}
					}
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() >= 50);
		long failoverStart = System.nanoTime();
		RedisServer promoted = failover.get();
		long failoverEnd = System.nanoTime();
		try {
			await().atMost(RECOVERY_LIMIT).until(() -> countSince(acquisitions, failoverEnd) >= 50);
		}
		finally {
			stopped.set(true);
			System.out.println("Attempts failed during the failover with " + failureKinds);
		}
		CriticalSections sections = locking.get(30, TimeUnit.SECONDS);
		List<long[]> before = new ArrayList<>();
		List<long[]> after = new ArrayList<>();
		synchronized (acquisitions) {
			for (long[] acquisition : acquisitions) {
				if (acquisition[0] < failoverStart) {
					before.add(acquisition);
				}
				else if (acquisition[0] > failoverEnd) {
					after.add(acquisition);
				}
			}
		}
		long firstAfterStart = acquisitions.stream()
			.filter((acquisition) -> acquisition[0] > failoverStart)
			.mapToLong((acquisition) -> acquisition[0])
			.min()
			.orElseThrow();
		System.out.printf(
				"Failover to %s took %d ms; first acquisition %d ms after the failover began, %d ms after it "
						+ "ended; %d sections, %d overlaps, %d updates lost, %d failed attempts%n",
				promoted, TimeUnit.NANOSECONDS.toMillis(failoverEnd - failoverStart),
				TimeUnit.NANOSECONDS.toMillis(firstAfterStart - failoverStart),
				TimeUnit.NANOSECONDS.toMillis(after.get(0)[0] - failoverEnd), ran.get(), sections.overlaps(),
				ran.get() - sections.count(), failures.get());
		assertThat(promoted.command("INFO", "replication").toString()).contains("role:master");
		long lastTokenBefore = before.stream().mapToLong((acquisition) -> acquisition[1]).max().orElseThrow();
		assertThat(after).allSatisfy((acquisition) -> assertThat(acquisition[1]).isGreaterThan(lastTokenBefore));
		assertThat(after.stream().map((acquisition) -> acquisition[1]).toList()).isSorted().doesNotHaveDuplicates();
		return promoted;
	}

	private static long patternSubscribers(RedisServer server) {
		String clients = String.valueOf(server.command("CLIENT", "LIST", "TYPE", "pubsub"));
		return clients.lines().filter((client) -> client.contains(" psub=1 ")).count();
	}

	private static long countSince(List<long[]> acquisitions, long since) {
		synchronized (acquisitions) {
			return acquisitions.stream().filter((acquisition) -> acquisition[0] > since).count();
		}
	}

	private void wokenByReleaseAgain() throws Exception {
		for (SentinelApplication[] pair : new SentinelApplication[][] { { this.first, this.second },
				{ this.second, this.first } }) {
			LockHandle holder = pair[0].template().tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
			Waiting waiting = Waiting.start(pair[1].template(),
					LockRequest.of("k", Duration.ofSeconds(30), LONG_BACKOFF));
			long releasedAt = System.nanoTime();
			holder.close();
			assertThat(waiting.acquiredAfter(releasedAt, Duration.ofSeconds(10))).isLessThan(Duration.ofSeconds(5));
			waiting.handle().close();
		}
	}

	private void exclusiveAgain() throws Exception {
		List<LockTemplate> templates = List.of(this.first.template(), this.second.template());
		AtomicInteger calls = new AtomicInteger();
		CriticalSections sections = CriticalSections.run(8, 10, (section) -> templates.get(calls.getAndIncrement() % 2)
			.execute("exclusive", Duration.ofSeconds(30), Duration.ofSeconds(30), () -> {
				section.run();
				return null;
			}));
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(80);
	}

}
