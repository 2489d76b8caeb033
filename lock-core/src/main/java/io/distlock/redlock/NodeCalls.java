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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.store.RaisableFencingLockClient;

/**
 * The blocking calls of a {@link RedlockClient} to its nodes: each node has a small pool
 * of threads of its own, so that a slow or frozen node holds only its own threads, and
 * the replies of all nodes are awaited together, for up to twice the node timeout.
 *
 * <p>
 * A call that finds a node's pool full counts as that node not answering, and the
 * exception thrown when too few nodes answered then names the limit. That exception also
 * says why each other silent node did not answer: its own failure (which names its
 * address and command timeout) or the time its reply was awaited.
 */
final class NodeCalls {

	// Logged as the client, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(RedlockClient.class);

	// The reply of a node whose pool had no room for the call.
	private static final Object SATURATED = new Object();

	private final List<RaisableFencingLockClient> nodes;

	private final int quorum;

	private final Duration nodeTimeout;

	private final int threadsPerNode;

	private final int queuedPerNode;

	private final List<ThreadPoolExecutor> executors;

	private final List<Integer> allNodes;

	NodeCalls(List<RaisableFencingLockClient> nodes, int quorum, Duration nodeTimeout, int threadsPerNode,
			int queuedPerNode) {
		this.nodes = nodes;
		this.quorum = quorum;
		this.nodeTimeout = nodeTimeout;
		this.threadsPerNode = threadsPerNode;
		this.queuedPerNode = queuedPerNode;
		this.executors = IntStream.range(0, nodes.size())
			.mapToObj((index) -> nodeExecutor(index, threadsPerNode, queuedPerNode))
			.toList();
		this.allNodes = IntStream.range(0, nodes.size()).boxed().toList();
	}

	/**
	 * Run the operation on every node at once and return the replies, if a majority of
	 * the nodes answered: see {@link #answered}.
	 */
	List<@Nullable Object> answeredOnAll(String key, String operation,
			Function<RaisableFencingLockClient, Object> call) {
		return answered(key, operation, onAll(key, call));
	}

	List<@Nullable Object> onAll(String key, Function<RaisableFencingLockClient, Object> operation) {
		return on(this.allNodes, key, operation);
	}

	/**
	 * Run the operation on every given node at once and collect each node's reply:
	 * {@code null} where the node failed or did not answer in time, {@link #SATURATED}
	 * where its pool had no room for the call.
	 */
	List<@Nullable Object> on(List<Integer> indices, String key,
			Function<RaisableFencingLockClient, Object> operation) {
		List<@Nullable Future<Object>> futures = new ArrayList<>(indices.size());
		List<@Nullable Object> replies = new ArrayList<>(indices.size());
		for (int index : indices) {
			RaisableFencingLockClient node = this.nodes.get(index);
			ThreadPoolExecutor executor = this.executors.get(index);
			try {
				futures.add(executor.submit(() -> operation.apply(node)));
			}
			catch (RejectedExecutionException ex) {
				futures.add(null);
			}
		}
		long deadline = System.nanoTime() + this.nodeTimeout.toNanos() * 2;
		for (int i = 0; i < indices.size(); i++) {
			ThreadPoolExecutor executor = this.executors.get(indices.get(i));
			Future<Object> future = futures.get(i);
			if (future == null) {
				replies.add(executor.isShutdown() ? null : SATURATED);
			}
			else {
				replies.add(reply(indices.get(i), executor, future, deadline, key));
			}
		}
		return replies;
	}

	/**
	 * Return the replies if a majority of the nodes answered, since only then does "not
	 * held" mean not held rather than not known.
	 */
	List<@Nullable Object> answered(String key, String operation, List<@Nullable Object> replies) {
		long answered = replies.stream()
			.filter((reply) -> reply != null && reply != SATURATED && !(reply instanceof NodeFailure))
			.count();
		if (answered < this.quorum) {
			long saturated = replies.stream().filter((reply) -> reply == SATURATED).count();
			throw new LockBackendException(key,
					"Only " + answered + " of " + this.nodes.size() + " Redlock nodes answered to " + operation
							+ " lock '" + key + "'; " + this.quorum + " are needed"
							+ ((saturated > 0) ? saturation(saturated) : "") + failures(replies),
					null);
		}
		return replies;
	}

	/**
	 * Count the nodes that answered {@code true}.
	 */
	static long count(List<@Nullable Object> replies) {
		return replies.stream().filter(Boolean.TRUE::equals).count();
	}

	/**
	 * Stop the threads that talk to the nodes.
	 */
	void close() {
		this.executors.forEach(ThreadPoolExecutor::shutdownNow);
	}

	private String saturation(long saturated) {
		return ". " + saturated + ((saturated != 1) ? " nodes were" : " node was") + " too busy to take the call: "
				+ "each node runs at most " + this.threadsPerNode + " calls at once and queues " + this.queuedPerNode
				+ " more, and a call to a slow node holds its thread for up to the node timeout of "
				+ this.nodeTimeout.toMillis() + "ms";
	}

	private static String failures(List<@Nullable Object> replies) {
		String failures = replies.stream()
			.filter(NodeFailure.class::isInstance)
			.map(NodeFailure.class::cast)
			.map((failure) -> "node " + failure.node() + ": " + failure.why())
			.collect(Collectors.joining("; "));
		return failures.isEmpty() ? "" : ". Not answered by " + failures;
	}

	private @Nullable Object reply(int node, ThreadPoolExecutor executor, Future<Object> future, long deadline,
			String key) {
		try {
			return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			giveUp(executor, future);
			return null;
		}
		catch (Exception ex) {
			giveUp(executor, future);
			if (logger.isDebugEnabled()) {
				logger.debug("A Redlock node failed for '" + key + "': " + ex);
			}
			return NodeFailure.of(node, ex, this.nodeTimeout.multipliedBy(2));
		}
	}

	private static void giveUp(ThreadPoolExecutor executor, Future<Object> future) {
		future.cancel(true);
		// Out of the queue at once, so that calls nobody waits for do not fill it.
		if (future instanceof Runnable queued) {
			executor.remove(queued);
		}
	}

	private static ThreadPoolExecutor nodeExecutor(int index, int threads, int queued) {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(queued), daemonThreads(index));
		// Threads of a quiet node are not kept.
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	private static ThreadFactory daemonThreads(int index) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, "distlock-redlock-" + index + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
