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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.store.AsyncFencingLockCalls;

/**
 * The releases of a {@link RedlockClient}: a release goes to every node at once, from the
 * calling thread when every node has non-blocking calls, else on the nodes' threads
 * ({@link NodeCalls}).
 */
final class NodeReleases {

	// Logged as the client, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(RedlockClient.class);

	private final NodeCalls calls;

	private final @Nullable List<AsyncFencingLockCalls> asyncNodes;

	private final Duration nodeTimeout;

	/**
	 * Create the releases over the given nodes.
	 * @param calls the calls to the nodes on their threads
	 * @param asyncNodes every node's non-blocking calls, or {@code null} unless every
	 * node has them
	 * @param nodeTimeout the longest one node may take to answer
	 */
	NodeReleases(NodeCalls calls, @Nullable List<AsyncFencingLockCalls> asyncNodes, Duration nodeTimeout) {
		this.calls = calls;
		this.asyncNodes = asyncNodes;
		this.nodeTimeout = nodeTimeout;
	}

	/**
	 * Release on every node at once and collect each node's reply.
	 */
	List<@Nullable Object> onAll(String key, String ownerToken) {
		List<AsyncFencingLockCalls> async = this.asyncNodes;
		if (async == null) {
			return this.calls.onAll(key, (node) -> node.release(key, ownerToken));
		}
		List<CompletableFuture<Boolean>> releases = async.stream()
			.map((node) -> AsyncAcquisition.started(() -> node.release(key, ownerToken)))
			.toList();
		return AsyncAcquisition.awaitAll(releases, System.nanoTime() + this.nodeTimeout.toNanos() * 2, key);
	}

	/**
	 * Release the partial acquisition of a caller that did not get the lock, on every
	 * node, logging a failure rather than throwing it.
	 */
	void quietly(String key, String ownerToken) {
		// A caller that was interrupted stopped waiting for the nodes, but some may have
		// taken the lock: the interrupt is held back while the release is waited for, or
		// the release would be abandoned at once and the lock stay for its whole ttl.
		boolean interrupted = Thread.interrupted();
		try {
			onAll(key, ownerToken);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not release the partial Redlock acquisition of '" + key + "'", ex);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
