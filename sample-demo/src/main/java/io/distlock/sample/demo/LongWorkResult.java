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

package io.distlock.sample.demo;

import java.time.Duration;
import java.util.List;

import io.distlock.sample.shop.Stocktake;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of the long-work check: a stocktake that outlasts its lock's ttl on one
 * node, and a purchase of the same product sent to another node after the ttl.
 *
 * @param stocktake what the stocktake returned
 * @param stocktakeAnswered when its answer arrived, from the moment it was sent
 * @param purchaseNode the node the purchase was sent to
 * @param purchaseSent when the purchase was sent, from the moment the stocktake was sent
 * @param purchaseAnswered when its answer arrived, from the same moment
 * @param purchaseStatus the purchase's HTTP status
 * @param purchaseToken the purchase's fencing token
 * @param log the stocktake node's log lines about the lock
 * @param leaseLeftMillis the lock's remaining lease in Redis ({@code PTTL}), read by the
 * demo once a second while the stocktake ran; empty with an external Redis
 * @param heldLocks the locks {@code GET /actuator/locks} on the stocktake's node listed
 * past the ttl, while the stocktake ran
 */
public record LongWorkResult(Stocktake stocktake, Duration stocktakeAnswered, String purchaseNode,
		Duration purchaseSent, Duration purchaseAnswered, int purchaseStatus, @Nullable Long purchaseToken,
		List<String> log, List<Long> leaseLeftMillis, List<HeldLock> heldLocks) {

	/**
	 * Return whether the lock stayed held for the whole stocktake: every check found it
	 * held, and the purchase got it only after the stocktake's work was done.
	 * @return whether the long work was protected throughout
	 */
	public boolean isSafe() {
		return this.stocktake.heldThroughout() && this.purchaseStatus == 200
				&& this.purchaseAnswered.toMillis() >= this.stocktake.tookMillis() && this.purchaseToken != null
				&& this.purchaseToken > this.stocktake.fencingToken();
	}

}
