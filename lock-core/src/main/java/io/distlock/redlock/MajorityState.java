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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.distlock.store.LockState;

/**
 * The state of a Redlock lock, merged from the states its nodes reported: held when a
 * majority of the nodes hold it for one same holder.
 */
final class MajorityState {

	private MajorityState() {
	}

	/**
	 * Merge the nodes' replies: the remaining lease of a held lock is the shortest among
	 * the nodes holding it, since the lock ends when the first of them lets it go, and
	 * the last fencing token is the highest any node knows. No fair waiters, read holds
	 * or permit holders are counted: a node's counts could only come from clients using
	 * that node alone, which hold nothing across the Redlock. The holdings list the
	 * exclusive holder alone, with the description its first node keeps.
	 * @param replies each node's reply, a {@link LockState} where it answered
	 * @param quorum how many nodes must agree for the lock to be held
	 * @return the lock's state
	 */
	static LockState of(List<@Nullable Object> replies, int quorum) {
		Map<String, List<LockState>> byHolder = new HashMap<>();
		@Nullable Long lastFencingToken = null;
		for (Object reply : replies) {
			if (reply instanceof LockState state) {
				if (state.held() && state.holder() != null) {
					byHolder.computeIfAbsent(state.holder(), (holder) -> new ArrayList<>()).add(state);
				}
				if (state.lastFencingToken() != null
						&& (lastFencingToken == null || state.lastFencingToken() > lastFencingToken)) {
					lastFencingToken = state.lastFencingToken();
				}
			}
		}
		for (Map.Entry<String, List<LockState>> holder : byHolder.entrySet()) {
			if (holder.getValue().size() >= quorum) {
				Duration lease = shortestLease(holder.getValue());
				// The exclusive holding, as the first node holding it described it.
				List<LockState.Holding> holdings = holder.getValue()
					.get(0)
					.holdings()
					.stream()
					.filter((holding) -> holding.kind() == LockState.Kind.EXCLUSIVE)
					.map((holding) -> new LockState.Holding(holding.kind(), holding.id(), holding.holder(), lease))
					.toList();
				return new LockState(true, lease, lastFencingToken, 0, holder.getKey(), 0, 0, holdings);
			}
		}
		return new LockState(false, null, lastFencingToken, 0, null);
	}

	private static @Nullable Duration shortestLease(List<LockState> states) {
		// A node holding the key without expiry does not shorten the lease.
		return states.stream()
			.map(LockState::remainingLease)
			.filter(Objects::nonNull)
			.min(Duration::compareTo)
			.orElse(null);
	}

}
