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

import io.distlock.store.Renewal;

/**
 * The renewals of a {@link RedlockClient}: a lease is renewed on every node at once, and
 * kept only while a majority of the nodes confirm it within its {@link ValidityTime
 * validity time}.
 */
final class NodeRenewals {

	private final NodeCalls calls;

	private final int quorum;

	private final ValidityTime validity;

	/**
	 * Create the renewals over the given nodes.
	 * @param calls the calls to the nodes
	 * @param quorum how many nodes must confirm a renewal
	 * @param validity the validity time of a lease
	 */
	NodeRenewals(NodeCalls calls, int quorum, ValidityTime validity) {
		this.calls = calls;
		this.quorum = quorum;
		this.validity = validity;
	}

	/**
	 * Renew one lease on every node.
	 * @return whether a majority renewed it in time
	 */
	boolean renew(String key, String ownerToken, Duration ttl) {
		long start = System.nanoTime();
		List<@Nullable Object> replies = this.calls.answeredOnAll(key, "renew",
				(node) -> node.renew(key, ownerToken, ttl));
		return NodeCalls.count(replies) >= this.quorum && this.validity.remainingMillis(ttl, start) > 0;
	}

	/**
	 * Renew the leases on every node, each judged on its own.
	 * @return for each lease, whether a majority renewed it in time
	 */
	boolean[] renewAll(List<Renewal> renewals) {
		if (renewals.isEmpty()) {
			return new boolean[0];
		}
		long start = System.nanoTime();
		String key = renewals.get(0).key();
		List<@Nullable Object> replies = this.calls.answeredOnAll(key, "renew", (node) -> node.renewAll(renewals));
		boolean[] renewed = new boolean[renewals.size()];
		for (int i = 0; i < renewed.length; i++) {
			int confirmed = 0;
			for (Object reply : replies) {
				if (reply instanceof boolean[] node && node[i]) {
					confirmed++;
				}
			}
			renewed[i] = confirmed >= this.quorum && this.validity.remainingMillis(renewals.get(i).ttl(), start) > 0;
		}
		return renewed;
	}

}
