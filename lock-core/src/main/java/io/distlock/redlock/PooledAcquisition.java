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

import org.jspecify.annotations.Nullable;

import io.distlock.store.AcquireResult;

/**
 * The Redlock acquisitions over nodes without non-blocking calls: every node's acquire
 * runs on that node's threads ({@link NodeCalls}), and the fencing raise goes to the
 * nodes that took the lock with a lower token than the highest, as in
 * {@link AsyncAcquisition}.
 */
final class PooledAcquisition {

	private PooledAcquisition() {
	}

	/**
	 * Take the lock on a majority of the nodes, or release it on every node.
	 * @param client the client whose quorum and validity rule apply
	 * @param calls the calls to the client's nodes
	 */
	static AcquireResult acquire(RedlockClient client, NodeCalls calls, String key, String ownerToken, Duration ttl) {
		long start = System.nanoTime();
		List<@Nullable Object> replies = calls.onAll(key, (node) -> node.tryAcquire(key, ownerToken, ttl));
		client.measureClocks(key, replies, ttl, start);
		Acquisitions acquisitions = Acquisitions.of(replies);
		int quorum = client.getQuorum();
		if (acquisitions.holding().size() >= quorum) {
			long fencingToken = acquisitions.fencingToken();
			List<@Nullable Object> raised = calls.on(acquisitions.below(), key,
					(node) -> node.raiseFencingToken(key, ownerToken, fencingToken));
			long confirmed = acquisitions.atToken().size() + NodeCalls.count(raised);
			if (confirmed >= quorum && client.validity(ttl, start) > 0) {
				return new AcquireResult.Acquired(fencingToken);
			}
		}
		client.releaseQuietly(key, ownerToken);
		calls.answered(key, "acquire", replies);
		return new AcquireResult.Busy(acquisitions.busyFor(), false, acquisitions.holder());
	}

}
