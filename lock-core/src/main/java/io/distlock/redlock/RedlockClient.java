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
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.AsyncFencingLockCalls;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockClient;
import io.distlock.store.LockState;
import io.distlock.store.RaisableFencingLockClient;
import io.distlock.store.Renewal;

import org.springframework.util.Assert;

/**
 * The {@link LockClient} of the Redlock algorithm over N independent Redis masters: a
 * lock is held while a majority ({@code N/2+1}) of them hold it for the same owner.
 *
 * <p>
 * Acquire runs the single-node acquire script on every node at once with one owner token,
 * and counts the lock held only if a majority took it and the validity time
 * {@code ttl - elapsed - drift} (drift being {@code ttl * clockDriftFactor + 2ms}) is
 * still positive; otherwise it releases on every node, including those that seemed to
 * fail, since their reply may have been lost. Fewer answering nodes than a majority is a
 * {@link LockBackendException}, not a busy lock. Release goes to every node; renewal
 * keeps the lock only while a majority confirms it.
 *
 * <p>
 * Fencing tokens: the token of an acquisition is the maximum {@code T} of the tokens
 * handed out by the nodes that took the lock. It counts as held only once a majority of
 * the nodes have their counter at {@code T} at least: the nodes that handed out {@code T}
 * themselves (their counter was incremented to it, atomically with taking the lock), plus
 * those of the other holding nodes that were raised to it. Any later holder's majority
 * shares a node with that majority; the counter of that node never goes back below
 * {@code T} (counters only grow, and a node's token is never below its Redis clock in
 * microseconds rounded down to a tenth of a second, so a counter that expires, is lost,
 * or comes back from an older snapshot after Redlock's delayed restart is past {@code T}
 * while the clocks agree: docs/redlock.md), so its later token, and with it the later
 * maximum, is strictly greater. Hence the raise goes only to the holding nodes below
 * {@code T}, and when the nodes that handed out {@code T} are a majority already, which
 * is the steady state where every node saw the same acquisitions, it is not waited for at
 * all: a lock+unlock then takes two rounds, acquire and release.
 *
 * <p>
 * Threads: when every node has {@link RaisableFencingLockClient#asyncCalls() non-blocking
 * calls} (a {@link io.distlock.redis.RedisLockClient} on Lettuce), acquire and release
 * are sent to all nodes from the calling thread and their replies awaited together,
 * within twice the node timeout, as on the nodes' threads. Other calls, and every call to
 * nodes without such calls, run on each node's small pool of its own, of at most
 * {@value #THREADS_PER_NODE} threads, with room for {@value #QUEUED_PER_NODE} more calls
 * waiting. A slow or frozen node therefore holds at most that many threads, each for up
 * to the node timeout, and does not slow down the calls to the other nodes. A call that
 * finds a node's pool full counts as that node not answering, and the exception then
 * names the limit.
 *
 * <p>
 * An acquisition that does not get the lock releases it on every node, with the caller's
 * interrupt flag cleared for that release and set again afterwards, so that an
 * interrupted caller does not leave the lock on the nodes that took it.
 *
 * <p>
 * {@link #inspect Inspection} and {@link #forceRelease forced release} ask every node as
 * well, and need nodes that are {@link InspectableLockClient}s themselves, as
 * {@link RedlockNodes}' clients are.
 */
public class RedlockClient implements InspectableLockClient, AutoCloseable {

	/**
	 * How many calls run on one node at once. The calls to a node share its one
	 * connection, on which Lettuce pipelines them, so a few threads keep it busy; and a
	 * frozen node holds no more than these until the node timeout frees them.
	 */
	static final int THREADS_PER_NODE = 8;

	/**
	 * How many more calls may wait for a node's threads. A caller that stops waiting for
	 * a node takes its call out of the queue, so this bounds the callers waiting at once,
	 * not a backlog.
	 */
	static final int QUEUED_PER_NODE = 1024;

	private final int quorum;

	private final Duration nodeTimeout;

	private final ValidityTime validity;

	private final NodeCalls calls;

	private final @Nullable List<AsyncFencingLockCalls> asyncNodes;

	private final NodeReleases releases;

	private final NodeRenewals renewals;

	private final NodeInspection inspection;

	private final ClockOffsets clockOffsets = new ClockOffsets();

	/**
	 * Create a client over the given nodes.
	 * @param nodes one client per independent Redis master; at least three
	 * @param clockDriftFactor the fraction of the ttl allowed for clock drift between the
	 * nodes, such as {@code 0.01}
	 * @param nodeTimeout the longest one node may take to answer; also bounds how long a
	 * call waits for a slow node
	 */
	public RedlockClient(List<? extends RaisableFencingLockClient> nodes, double clockDriftFactor,
			Duration nodeTimeout) {
		this(nodes, clockDriftFactor, nodeTimeout, THREADS_PER_NODE, QUEUED_PER_NODE);
	}

	/**
	 * Create a client over the given nodes, with the given limits on the calls to each.
	 * @param nodes one client per independent Redis master; at least three
	 * @param clockDriftFactor the fraction of the ttl allowed for clock drift
	 * @param nodeTimeout the longest one node may take to answer
	 * @param threadsPerNode how many calls run on one node at once
	 * @param queuedPerNode how many more calls may wait for one node
	 */
	RedlockClient(List<? extends RaisableFencingLockClient> nodes, double clockDriftFactor, Duration nodeTimeout,
			int threadsPerNode, int queuedPerNode) {
		Assert.isTrue(nodes.size() >= 3,
				() -> "Redlock needs at least 3 independent Redis nodes, but " + nodes.size() + " were given");
		Assert.isTrue(clockDriftFactor >= 0 && clockDriftFactor < 1,
				() -> "'clockDriftFactor' must be at least 0 and less than 1 but was " + clockDriftFactor);
		List<RaisableFencingLockClient> copy = List.copyOf(nodes);
		this.quorum = nodes.size() / 2 + 1;
		this.nodeTimeout = nodeTimeout;
		this.validity = new ValidityTime(clockDriftFactor);
		Assert.isTrue(threadsPerNode >= 1 && queuedPerNode >= 1, "A node needs at least 1 thread and 1 queued call");
		this.calls = new NodeCalls(copy, this.quorum, nodeTimeout, threadsPerNode, queuedPerNode);
		this.asyncNodes = asyncNodes(copy);
		this.releases = new NodeReleases(this.calls, this.asyncNodes, nodeTimeout);
		this.renewals = new NodeRenewals(this.calls, this.quorum, this.validity);
		this.inspection = new NodeInspection(copy, this.calls, this.quorum);
	}

	/**
	 * Return every node's non-blocking calls, or {@code null} unless every node has them.
	 */
	private static @Nullable List<AsyncFencingLockCalls> asyncNodes(List<RaisableFencingLockClient> nodes) {
		List<AsyncFencingLockCalls> calls = new ArrayList<>(nodes.size());
		for (RaisableFencingLockClient node : nodes) {
			Optional<AsyncFencingLockCalls> async = node.asyncCalls();
			if (async.isEmpty()) {
				return null;
			}
			calls.add(async.get());
		}
		return List.copyOf(calls);
	}

	/**
	 * Return how many nodes must agree for the lock to be held.
	 * @return the majority of the nodes
	 */
	public int getQuorum() {
		return this.quorum;
	}

	Duration nodeTimeout() {
		return this.nodeTimeout;
	}

	/**
	 * Return the largest offset between the clocks of two nodes measured so far, the
	 * run-time check of the assumption the fencing guarantee needs: tokens are sure to
	 * increase across majorities while the clocks of any two nodes differ by less than
	 * the lock's ttl and the fencing counter's retention (docs/redlock.md). Measured from
	 * the clocks the nodes answer every acquisition with, less the round's duration, so
	 * an offset the clocks have at least; one that reaches an acquisition's ttl (or one
	 * minute, the shortest retention) is logged as a warning: the first, and again each
	 * time one is larger than the offset last logged.
	 * @return the largest offset, {@link Duration#ZERO} before any was seen
	 */
	public Duration getLargestClockOffset() {
		return this.clockOffsets.largest();
	}

	/**
	 * Measure the nodes' clocks from their answers to one acquisition.
	 */
	void measureClocks(String key, List<@Nullable Object> replies, Duration ttl, long startNanos) {
		this.clockOffsets.measure(key, replies, ttl, System.nanoTime() - startNanos);
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		List<AsyncFencingLockCalls> async = this.asyncNodes;
		if (async != null) {
			return new AsyncAcquisition(this, async, key, ownerToken, ttl).acquire();
		}
		return PooledAcquisition.acquire(this, this.calls, key, ownerToken, ttl);
	}

	@Override
	public boolean release(String key, String ownerToken) {
		List<@Nullable Object> replies = answered(key, "release", this.releases.onAll(key, ownerToken));
		return NodeCalls.count(replies) >= this.quorum;
	}

	@Override
	public boolean renew(String key, String ownerToken, Duration ttl) {
		return this.renewals.renew(key, ownerToken, ttl);
	}

	@Override
	public boolean[] renewAll(List<Renewal> renewals) {
		return this.renewals.renewAll(renewals);
	}

	@Override
	public boolean isHeld(String key, String ownerToken) {
		return NodeCalls
			.count(this.calls.answeredOnAll(key, "check", (node) -> node.isHeld(key, ownerToken))) >= this.quorum;
	}

	/**
	 * Inspect the lock on every node at once. The lock is held when a majority of the
	 * nodes hold it for one same holder; its remaining lease is then the shortest among
	 * those nodes, since the lock ends when the first of them lets it go. The last
	 * fencing token is the highest any node knows. Redlock has no fair locks, no read
	 * holds and no permits, so it counts no fair waiters, read holds or permit holders (a
	 * node's counts could only come from clients using that node alone, which hold
	 * nothing across the Redlock).
	 * @throws LockBackendException if fewer than a majority of the nodes answered, since
	 * then the lock's state is not known
	 * @throws UnsupportedOperationException if a node cannot be inspected
	 */
	@Override
	public LockState inspect(String key) {
		return this.inspection.inspect(key);
	}

	/**
	 * Remove the lock on every node at once, whoever holds it on each, and publish each
	 * removal there.
	 * @return {@code true} if any node held the lock
	 * @throws LockBackendException if fewer than a majority of the nodes answered: the
	 * lock is gone from those that did, but may still be held on enough of the others
	 * @throws UnsupportedOperationException if a node cannot force-release locks
	 */
	@Override
	public boolean forceRelease(String key) {
		return this.inspection.forceRelease(key);
	}

	/**
	 * Stop the threads that talk to the nodes.
	 */
	@Override
	public void close() {
		this.calls.close();
	}

	long validity(Duration ttl, long start) {
		return this.validity.remainingMillis(ttl, start);
	}

	void releaseQuietly(String key, String ownerToken) {
		this.releases.quietly(key, ownerToken);
	}

	/**
	 * Return the replies if a majority of the nodes answered: see
	 * {@link NodeCalls#answered}.
	 */
	List<@Nullable Object> answered(String key, String operation, List<@Nullable Object> replies) {
		return this.calls.answered(key, operation, replies);
	}

}
