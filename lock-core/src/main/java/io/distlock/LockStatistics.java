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

package io.distlock;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what happened to the locks of one {@link LockTemplate}. Always on, since
 * counting costs next to nothing; the metrics support exposes these counts.
 */
public final class LockStatistics implements LockListener {

	private final LongAdder acquired = new LongAdder();

	private final LongAdder notAcquired = new LongAdder();

	private final LongAdder released = new LongAdder();

	private final LongAdder releaseMismatches = new LongAdder();

	private final LongAdder lost = new LongAdder();

	@Override
	public void onAcquired(String key, long fencingToken, Duration waited) {
		this.acquired.increment();
	}

	@Override
	public void onNotAcquired(String key, Duration waited) {
		this.notAcquired.increment();
	}

	@Override
	public void onReleased(String key, Duration held) {
		this.released.increment();
	}

	@Override
	public void onReleaseMismatch(String key, Duration held) {
		this.releaseMismatches.increment();
	}

	@Override
	public void onLost(String key, long fencingToken, Thread holder) {
		this.lost.increment();
	}

	/**
	 * Return how many locks were acquired.
	 * @return the count of acquisitions
	 */
	public long getAcquired() {
		return this.acquired.sum();
	}

	/**
	 * Return how many acquisitions gave up because the lock stayed busy.
	 * @return the count of acquisitions not made
	 */
	public long getNotAcquired() {
		return this.notAcquired.sum();
	}

	/**
	 * Return how many locks were released by their owner.
	 * @return the count of releases
	 */
	public long getReleased() {
		return this.released.sum();
	}

	/**
	 * Return how many releases found the lock already expired, so nothing was deleted.
	 * @return the count of releases after expiry
	 */
	public long getReleaseMismatches() {
		return this.releaseMismatches.sum();
	}

	/**
	 * Return how many held locks were found lost while their owner still used them.
	 * @return the count of lost locks
	 */
	public long getLost() {
		return this.lost.sum();
	}

}
