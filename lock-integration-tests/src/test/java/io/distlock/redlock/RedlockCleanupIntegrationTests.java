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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.LockBackendException;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redlock acquisition that gives up after nodes took the lock gives it back on every
 * node, also when the caller was interrupted.
 */
class RedlockCleanupIntegrationTests {

	// Far longer than the test: a lock left behind is still there when checked.
	private static final Duration TTL = Duration.ofSeconds(30);

	private static final Duration NODE_TIMEOUT = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(5);

	@Test
	void acquisitionInterruptedAfterTheNodesTookTheLockGivesItBackOnEveryNode() throws Exception {
		try (RedlockNodes nodes = RedlockNodes.connect(redis.uris(), NODE_TIMEOUT);
				RedlockClient client = new RedlockClient(slowClients(nodes), 0.01, NODE_TIMEOUT)) {
			CompletableFuture<Throwable> failure = new CompletableFuture<>();
			AtomicBoolean stillInterrupted = new AtomicBoolean();
			Thread caller = new Thread(() -> {
				try {
					client.tryAcquire("k", "owner", TTL);
					failure.complete(null);
				}
				catch (Throwable ex) {
					stillInterrupted.set(Thread.currentThread().isInterrupted());
					failure.complete(ex);
				}
			});
			caller.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> nodesHolding("k") == 5);
			caller.interrupt();
			assertThat(failure.get(5, TimeUnit.SECONDS)).isInstanceOf(LockBackendException.class);
			assertThat(stillInterrupted).as("interrupt flag restored").isTrue();
			assertThat(nodesHolding("k")).isZero();
		}
	}

	/**
	 * Node clients that take the lock at once but answer only after the node timeout.
	 */
	private static List<RedisLockClient> slowClients(RedlockNodes nodes) {
		return nodes.connectionFactories()
			.stream()
			.map((factory) -> (RedisLockClient) new SlowNodeLockClient(factory, NODE_TIMEOUT))
			.toList();
	}

	private static long nodesHolding(String key) {
		return redis.endpoints().stream().filter((node) -> Long.valueOf(1).equals(node.command("EXISTS", key))).count();
	}

}
