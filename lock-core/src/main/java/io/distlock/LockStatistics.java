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

/**
 * A read-only view of the counts of what happened to the locks of one
 * {@link LockTemplate}. Always on, since counting costs next to nothing; the metrics
 * support exposes these counts.
 *
 * @see LockTemplate#getStatistics()
 */
public final class LockStatistics {

	private final LockCounters counters;

	LockStatistics(LockCounters counters) {
		this.counters = counters;
	}

	/**
	 * Return how many locks were acquired.
	 * @return the count of acquisitions
	 */
	public long getAcquired() {
		return this.counters.acquired.sum();
	}

	/**
	 * Return how many acquisitions gave up because the lock stayed busy.
	 * @return the count of acquisitions not made
	 */
	public long getNotAcquired() {
		return this.counters.notAcquired.sum();
	}

	/**
	 * Return how many locks were released by their owner.
	 * @return the count of releases
	 */
	public long getReleased() {
		return this.counters.released.sum();
	}

	/**
	 * Return how many releases found the lock already expired, so nothing was deleted.
	 * @return the count of releases after expiry
	 */
	public long getReleaseMismatches() {
		return this.counters.releaseMismatches.sum();
	}

	/**
	 * Return how many held locks were found lost while their owner still used them.
	 * @return the count of lost locks
	 */
	public long getLost() {
		return this.counters.lost.sum();
	}

	@Override
	public String toString() {
		return "LockStatistics[acquired=" + getAcquired() + ", notAcquired=" + getNotAcquired() + ", released="
				+ getReleased() + ", releaseMismatches=" + getReleaseMismatches() + ", lost=" + getLost() + "]";
	}

}
