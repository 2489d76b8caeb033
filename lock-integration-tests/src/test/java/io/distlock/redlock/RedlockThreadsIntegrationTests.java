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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedlockClient} talks to its nodes on a bounded number of threads: a frozen node
 * under many concurrent callers costs waiting time, not a thread per call.
 */
class RedlockThreadsIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(500);

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final int CALLERS = 200;

	// Five nodes with at most 8 threads each, and some slack for the JVM's own.
	private static final int THREAD_BOUND = 50;

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(5);

	@Test
	void manyCallersWithOneFrozenNodeUseABoundedNumberOfThreadsAndAllAnswerInTime() throws Exception {
		try (RedlockNodes nodes = RedlockNodes.connect(redis.uris(), NODE_TIMEOUT);
				RedlockClient client = new RedlockClient(nodes.clients(), 0.01, NODE_TIMEOUT)) {
			assertThat(client.tryAcquire("warm-up", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
			redis.server(0).pause();
			AtomicReferenceArray<Object> outcomes = new AtomicReferenceArray<>(CALLERS);
			CountDownLatch ready = new CountDownLatch(CALLERS);
			CountDownLatch go = new CountDownLatch(1);
			List<Thread> callers = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				int caller = i;
				Thread thread = new Thread(() -> {
					ready.countDown();
					try {
						go.await();
						outcomes.set(caller, client.tryAcquire("k" + caller, owner(), TTL));
					}
					catch (Exception ex) {
						outcomes.set(caller, ex);
					}
				}, "redlock-caller-" + i);
				callers.add(thread);
				thread.start();
			}
			assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
			// Measured with the callers already started, so that only threads started
			// for them count.
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			int baseline = threads.getThreadCount();
			threads.resetPeakThreadCount();
			long start = System.nanoTime();
			go.countDown();
			for (Thread caller : callers) {
				caller.join(TimeUnit.SECONDS.toMillis(20));
				assertThat(caller.isAlive()).as("%s answered", caller.getName()).isFalse();
			}
			long elapsed = System.nanoTime() - start;
			int added = threads.getPeakThreadCount() - baseline;
			assertThat(added).as("threads started for %d callers", CALLERS).isLessThan(THREAD_BOUND);
			// Each caller waits at most twice the node timeout for the frozen node.
			assertThat(elapsed).isLessThan(TimeUnit.SECONDS.toNanos(10));
			// Taken on the four nodes that answer; on a starved machine, a majority may
			// not
			// confirm the fencing token in time (busy), or not answer at all (an
			// exception): answers all the same.
			for (int i = 0; i < CALLERS; i++) {
				assertThat(outcomes.get(i)).satisfiesAnyOf(
						(outcome) -> assertThat(outcome).isInstanceOf(AcquireResult.class),
						(outcome) -> assertThat(outcome).isInstanceOf(LockBackendException.class)
							.asString()
							.contains("Redlock nodes answered to acquire"));
			}
		}
	}

	@Test
	void nodesTooBusyToTakeACallFailItNamingTheLimitAndTheNodeTimeout() throws Exception {
		try (RedlockNodes nodes = RedlockNodes.connect(redis.uris(), NODE_TIMEOUT);
				RedlockClient client = new RedlockClient(nodes.clients(), 0.01, NODE_TIMEOUT, 1, 1)) {
			redis.server(0).pause();
			redis.server(1).pause();
			redis.server(2).pause();
			// Each frozen node runs the first caller's call for the node timeout and
			// queues the second's: the others find no room.
			List<Exception> failures = new CopyOnWriteArrayList<>();
			CountDownLatch go = new CountDownLatch(1);
			List<Thread> callers = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				Thread thread = new Thread(() -> {
					try {
						go.await();
						// A check runs on the nodes' threads (acquire and release call
						// Lettuce nodes from the caller).
						client.isHeld("k", owner());
					}
					catch (Exception ex) {
						failures.add(ex);
					}
				});
				callers.add(thread);
				thread.start();
			}
			go.countDown();
			for (Thread caller : callers) {
				caller.join(TimeUnit.SECONDS.toMillis(10));
			}
			assertThat(failures).hasSize(5)
				.allSatisfy((failure) -> assertThat(failure).isInstanceOf(LockBackendException.class))
				.anySatisfy((failure) -> assertThat(failure).hasMessageContaining("too busy to take the call")
					.hasMessageContaining("each node runs at most 1 calls at once and queues 1 more")
					.hasMessageContaining("node timeout of 500ms"));
		}
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
