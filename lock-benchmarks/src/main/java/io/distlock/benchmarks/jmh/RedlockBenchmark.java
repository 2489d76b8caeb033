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

package io.distlock.benchmarks.jmh;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.IterationParams;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.BenchmarkRedis;
import io.distlock.benchmarks.Scenario;
import io.distlock.benchmarks.contenders.LockContender;
import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.redlock.RedlockClient;
import io.distlock.redlock.RedlockNodes;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

/**
 * Uncontended lock and unlock on one thread through {@link LockTemplate}, on a single
 * Redis node and with Redlock over 3 and 5 independent nodes, all connected the same way
 * ({@link RedlockNodes}, 200 ms node timeout, 1% clock drift).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class RedlockBenchmark {

	private static final String KEY = "bench:redlock";

	private static final Duration TTL = Duration.ofSeconds(LockContender.LEASE_SECONDS);

	private static final Duration WAIT = Duration.ofSeconds(LockContender.WAIT_SECONDS);

	/**
	 * Lock, run nothing, unlock.
	 * @param state the template over the nodes
	 */
	@Benchmark
	public void lockUnlock(NodesState state) {
		long start = System.nanoTime();
		try (LockHandle lock = state.template().tryAcquire(KEY, TTL, WAIT).orElseThrow()) {
			// Nothing under the lock.
		}
		state.latencies.record(System.nanoTime() - start);
	}

	/**
	 * A template over the first {@code nodes} Redlock nodes.
	 */
	@State(Scope.Benchmark)
	public static class NodesState {

		private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

		/**
		 * How many nodes: 1 is a plain single-node client, 3 and 5 are Redlock.
		 */
		@Param({ "1", "3", "5" })
		public int nodes;

		final Latencies latencies = new Latencies();

		private @Nullable RedlockNodes connections;

		private @Nullable RedlockClient redlock;

		private @Nullable LockTemplate template;

		/**
		 * Connect to the nodes.
		 */
		@Setup(Level.Trial)
		public void setUp() {
			List<String> urls = BenchmarkRedis.redlockNodes()
				.subList(0, this.nodes)
				.stream()
				.map(RedisAddress::url)
				.toList();
			this.connections = RedlockNodes.connect(urls, NODE_TIMEOUT);
			LockClient client;
			if (this.nodes == 1) {
				client = this.connections.clients().get(0);
			}
			else {
				this.redlock = new RedlockClient(this.connections.clients(), 0.01, NODE_TIMEOUT);
				client = this.redlock;
			}
			this.template = new LockTemplate(client, new LockWaiter(Duration.ofMillis(500)));
			warmUp(this.template);
		}

		/**
		 * Connect and load the scripts before measuring: the node connections are made on
		 * first use, and a cold first call can take longer than Redlock waits for a node
		 * (twice the node timeout), which fails it.
		 */
		private static void warmUp(LockTemplate template) {
			RuntimeException failure = null;
			for (int attempt = 0; attempt < 20; attempt++) {
				try {
					template.tryAcquire(KEY, TTL, Duration.ZERO).ifPresent(LockHandle::close);
					return;
				}
				catch (RuntimeException ex) {
					failure = ex;
				}
			}
			throw failure;
		}

		/**
		 * Start recording latencies, for measurement iterations.
		 * @param iteration the iteration
		 */
		@Setup(Level.Iteration)
		public void startIteration(IterationParams iteration) {
			this.latencies.startIteration(iteration);
		}

		/**
		 * Keep the iteration's latencies.
		 */
		@TearDown(Level.Iteration)
		public void endIteration() {
			this.latencies.endIteration();
		}

		/**
		 * Write the latencies and close the connections.
		 */
		@TearDown(Level.Trial)
		public void tearDown() {
			this.latencies.write(BenchmarkFiles.histograms(BenchmarkFiles.resultsDirectory(), Scenario.REDLOCK.id(),
					"nodes-" + this.nodes));
			if (this.redlock != null) {
				this.redlock.close();
			}
			if (this.connections != null) {
				this.connections.close();
			}
		}

		LockTemplate template() {
			LockTemplate template = this.template;
			if (template == null) {
				throw new IllegalStateException("Not set up");
			}
			return template;
		}

	}

}
