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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.store.AcquireResult;
import io.distlock.store.AsyncFencingLockCalls;

/**
 * One Redlock acquisition over nodes with {@link AsyncFencingLockCalls}: every node's
 * acquire is sent from the calling thread, and the replies are awaited together, for up
 * to twice the node timeout, as on the nodes' threads.
 *
 * <p>
 * The fencing raise is sent only to the nodes that took the lock with a lower token than
 * the highest, and is only waited for when the nodes already at the highest token are no
 * majority: see {@link RedlockClient} for why that keeps tokens increasing. In the steady
 * state, where every node saw the same acquisitions, all nodes hand out the same token,
 * and a lock+unlock is two rounds: acquire and release.
 */
final class AsyncAcquisition {

	private static final Log logger = LogFactory.getLog(AsyncAcquisition.class);

	private final RedlockClient client;

	private final List<AsyncFencingLockCalls> nodes;

	private final String key;

	private final String ownerToken;

	private final Duration ttl;

	AsyncAcquisition(RedlockClient client, List<AsyncFencingLockCalls> nodes, String key, String ownerToken,
			Duration ttl) {
		this.client = client;
		this.nodes = nodes;
		this.key = key;
		this.ownerToken = ownerToken;
		this.ttl = ttl;
	}

	AcquireResult acquire() {
		long start = System.nanoTime();
		// As long as on the nodes' threads, not just the validity: a node that answers
		// late makes the lock busy, one that does not answer makes it unknown.
		long deadline = start + this.client.nodeTimeout().toNanos() * 2;
		List<CompletableFuture<AcquireResult>> acquiring = this.nodes.stream()
			.map((node) -> started(() -> node.tryAcquire(this.key, this.ownerToken, this.ttl)))
			.toList();
		List<@Nullable Object> replies = awaitAll(acquiring, deadline, this.key);
		this.client.measureClocks(this.key, replies, this.ttl, start);
		Acquisitions acquisitions = Acquisitions.of(replies);
		int quorum = this.client.getQuorum();
		if (acquisitions.holding().size() >= quorum) {
			long fencingToken = acquisitions.fencingToken();
			List<CompletableFuture<Boolean>> raises = new ArrayList<>();
			for (int index : acquisitions.below()) {
				AsyncFencingLockCalls node = this.nodes.get(index);
				raises.add(started(() -> node.raiseFencingToken(this.key, this.ownerToken, fencingToken)));
			}
			long confirmed = acquisitions.atToken().size();
			if (confirmed < quorum) {
				long raiseDeadline = System.nanoTime() + this.client.nodeTimeout().toNanos() * 2;
				confirmed += NodeCalls.count(awaitAll(raises, raiseDeadline, this.key));
			}
			// Otherwise the raises of the lagging nodes go on unawaited: they only bring
			// those nodes' counters up for later acquisitions.
			if (confirmed >= quorum && this.client.validity(this.ttl, start) > 0) {
				return new AcquireResult.Acquired(fencingToken);
			}
		}
		releaseAfter(acquiring);
		this.client.answered(this.key, "acquire", replies);
		return new AcquireResult.Busy(acquisitions.busyFor(), false, acquisitions.holder());
	}

	/**
	 * Release on every node, each only once its acquire has answered (or failed): a node
	 * may yet take the lock, and a release sent ahead of the acquire, which Redis could
	 * run first when the acquire's script must be sent again ({@code NOSCRIPT}), would
	 * leave the lock behind. The caller's interrupt is held back while the releases are
	 * waited for, as on the nodes' threads.
	 */
	private void releaseAfter(List<CompletableFuture<AcquireResult>> acquiring) {
		boolean interrupted = Thread.interrupted();
		try {
			List<CompletableFuture<Boolean>> releases = new ArrayList<>(acquiring.size());
			for (int i = 0; i < acquiring.size(); i++) {
				AsyncFencingLockCalls node = this.nodes.get(i);
				Supplier<CompletionStage<Boolean>> release = () -> node.release(this.key, this.ownerToken);
				CompletableFuture<AcquireResult> acquire = acquiring.get(i);
				releases.add(acquire.isDone() ? started(release)
						: acquire.handle((result, ex) -> null).thenCompose((answered) -> started(release)));
			}
			awaitAll(releases, System.nanoTime() + this.client.nodeTimeout().toNanos() * 2, this.key);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Start a call, turning a failure to even send it into a failed stage.
	 */
	static <T> CompletableFuture<T> started(Supplier<CompletionStage<T>> call) {
		try {
			return call.get().toCompletableFuture();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Wait for the calls until the deadline and collect each reply: a {@link NodeFailure}
	 * where the node failed or did not answer in time. An interrupt ends the wait and is
	 * kept.
	 */
	static List<@Nullable Object> awaitAll(List<? extends CompletableFuture<?>> calls, long deadline, String key) {
		long start = System.nanoTime();
		try {
			CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]))
				.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Some node failed or is late: each is read below.
		}
		Duration waited = Duration.ofNanos(Math.max(0, deadline - start));
		List<@Nullable Object> replies = new ArrayList<>(calls.size());
		for (int i = 0; i < calls.size(); i++) {
			CompletableFuture<?> call = calls.get(i);
			if (call.isDone() && !call.isCompletedExceptionally()) {
				replies.add(call.join());
			}
			else {
				if (logger.isDebugEnabled()) {
					logger.debug("A Redlock node failed or did not answer in time for '" + key + "'");
				}
				Throwable failure = call.isDone() ? call.handle((reply, ex) -> ex).join() : new TimeoutException();
				replies.add(NodeFailure.of(i, (failure != null) ? failure : new TimeoutException(), waited));
			}
		}
		return replies;
	}

}
