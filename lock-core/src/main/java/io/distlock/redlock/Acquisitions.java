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

import org.jspecify.annotations.Nullable;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockHolder;

/**
 * What the nodes answered to one Redlock acquire: which took the lock, with which fencing
 * tokens, and how long the lock stays busy where it did not.
 *
 * @param holding the indices of the nodes that took the lock
 * @param fencingToken the highest token among them, the acquisition's token
 * @param atToken the nodes that took the lock and handed out that highest token: their
 * counters are at it already
 * @param below the nodes that took the lock with a lower token: their counters must be
 * raised for them to count towards the token's majority
 * @param busyFor the shortest remaining lease of another holder, if any node named one
 * @param holder the first holder a node named, if any
 */
record Acquisitions(List<Integer> holding, long fencingToken, List<Integer> atToken, List<Integer> below,
		@Nullable Duration busyFor, @Nullable LockHolder holder) {

	/**
	 * Read the replies of the nodes, in node order: {@code null} or anything but an
	 * {@link AcquireResult} for a node that did not answer.
	 */
	static Acquisitions of(List<@Nullable Object> replies) {
		List<Integer> holding = new ArrayList<>();
		long token = 0;
		Duration busyFor = null;
		LockHolder holder = null;
		for (int i = 0; i < replies.size(); i++) {
			Object reply = replies.get(i);
			if (reply instanceof AcquireResult.Acquired acquired) {
				holding.add(i);
				token = Math.max(token, acquired.fencingToken());
			}
			else if (reply instanceof AcquireResult.Busy busy) {
				if (busy.remainingTtl() != null && (busyFor == null || busy.remainingTtl().compareTo(busyFor) < 0)) {
					busyFor = busy.remainingTtl();
				}
				holder = (holder != null) ? holder : busy.holder();
			}
		}
		List<Integer> atToken = new ArrayList<>();
		List<Integer> below = new ArrayList<>();
		for (int i : holding) {
			long nodeToken = ((AcquireResult.Acquired) replies.get(i)).fencingToken();
			((nodeToken == token) ? atToken : below).add(i);
		}
		return new Acquisitions(holding, token, atToken, below, busyFor, holder);
	}

}
