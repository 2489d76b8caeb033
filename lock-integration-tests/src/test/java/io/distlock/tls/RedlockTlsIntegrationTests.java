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

package io.distlock.tls;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.distlock.LockHandle;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.redlock.RedlockClient;
import io.distlock.redlock.RedlockNodes;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Redlock over {@link RedlockNodes#connect(List, Duration, io.lettuce.core.SslOptions)}
 * on three redis-server processes that accept only mutual TLS: locks are exclusive, taken
 * on every node, renewed, and waiters are woken by releases over TLS.
 */
class RedlockTlsIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(500);

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofSeconds(20);

	private static final List<RedisServer> servers = new ArrayList<>();

	private final List<Application> applications = new ArrayList<>();

	@BeforeAll
	static void startServers() {
		assumeThat(RedisServer.isTlsSupported()).as("redis-server supports TLS").isTrue();
		for (int i = 0; i < 3; i++) {
			// The client certificate of RedisConnections.sslOptions() is required.
			servers.add(RedisServer.startTls("--tls-auth-clients", "yes"));
		}
	}

	@AfterAll
	static void closeServers() {
		servers.forEach(RedisServer::close);
	}

	@BeforeEach
	void startApplications() {
		servers.forEach(RedisServer::flushAll);
		this.applications.add(new Application());
		this.applications.add(new Application());
	}

	@AfterEach
	void closeApplications() {
		this.applications.forEach(Application::close);
	}

	@Test
	void lockIsTakenOnEveryNodeAndGivenBackOnRelease() {
		assertThat(servers).allSatisfy((server) -> assertThat(server.uri()).startsWith("rediss://"));
		try (LockHandle handle = template(0).tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO).orElseThrow()) {
			assertThat(servers).allSatisfy((server) -> assertThat(server.command("EXISTS", "lock:k")).isEqualTo(1L));
			assertThat(template(1).tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO)).isEmpty();
		}
		assertThat(servers).allSatisfy((server) -> assertThat(server.command("EXISTS", "lock:k")).isEqualTo(0L));
	}

	@Test
	void eightThreadsInTwoApplicationsNeverOverlap() throws Exception {
		AtomicInteger calls = new AtomicInteger();
		CriticalSections sections = CriticalSections.run(8, 10, (section) -> template(calls.getAndIncrement() % 2)
			.execute("counter", Duration.ofSeconds(10), Duration.ofSeconds(30), () -> {
				section.run();
				return null;
			}));
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(80);
	}

	@Test
	void waiterIsWokenByTheReleaseLongBeforeItsBackoff() throws Exception {
		LockHandle holder = template(0).tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
		long[] acquiredAt = new long[1];
		CompletableFuture<LockHandle> acquired = new CompletableFuture<>();
		Thread waiting = new Thread(() -> {
			LockHandle handle = template(1).tryAcquire("k", Duration.ofSeconds(30), LONG_BACKOFF).orElseThrow();
			acquiredAt[0] = System.nanoTime();
			acquired.complete(handle);
		});
		waiting.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> LockSupport.getBlocker(waiting) instanceof LockWaiter.Waiter);
		long releasedAt = System.nanoTime();
		holder.close();
		acquired.get(5, TimeUnit.SECONDS).close();
		assertThat(Duration.ofNanos(acquiredAt[0] - releasedAt)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void lockWithAShortTtlIsRenewedOnAMajorityOfNodesWhileHeldFourTimesItsTtl() {
		Duration ttl = Duration.ofSeconds(1);
		try (LockHandle handle = template(0).tryAcquire("k", ttl, Duration.ZERO).orElseThrow()) {
			await().during(ttl.multipliedBy(4))
				.atMost(ttl.multipliedBy(6))
				.pollInterval(Duration.ofMillis(50))
				// A majority is what Redlock holds the lock by; one node's renewal may
				// come
				// late on a loaded machine without the lock being at risk.
				.until(() -> servers.stream()
					.filter((server) -> (Long) server.command("PTTL", "lock:k") > 0)
					.count() >= 2);
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(template(0).getEngine().getStatistics().getLost()).isZero();
	}

	private LockTemplate template(int application) {
		return this.applications.get(application).template;
	}

	/**
	 * One application: its own TLS connections to the nodes, a release notifier on each,
	 * a renewer and a template.
	 */
	private static final class Application implements AutoCloseable {

		private final RedlockNodes nodes;

		private final RedlockClient client;

		private final List<RedisReleaseNotifier> notifiers;

		private final LeaseRenewer renewer;

		private final LockTemplate template;

		Application() {
			this.nodes = RedlockNodes.connect(servers.stream().map(RedisServer::uri).toList(), NODE_TIMEOUT,
					RedisConnections.sslOptions());
			this.client = new RedlockClient(this.nodes.clients(), 0.01, NODE_TIMEOUT);
			LockWaiter waiter = new LockWaiter(LONG_BACKOFF, LONG_BACKOFF);
			this.notifiers = this.nodes.connectionFactories()
				.stream()
				.map((factory) -> new RedisReleaseNotifier(factory, waiter))
				.toList();
			this.notifiers.forEach(RedisReleaseNotifier::start);
			this.renewer = new LeaseRenewer(this.client, Duration.ofHours(1));
			this.template = new LockTemplate(
					new LockEngine(this.client, waiter, LockSettings.defaults(), this.renewer));
		}

		@Override
		public void close() {
			this.renewer.close();
			this.notifiers.forEach(RedisReleaseNotifier::close);
			this.client.close();
			this.nodes.close();
		}

	}

}
