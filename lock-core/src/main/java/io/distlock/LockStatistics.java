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

import java.util.concurrent.atomic.LongAdder;

/**
 * A read-only view of the counts of what happened to the locks of one lock engine, which
 * counts them with the {@linkplain #counter() counter} as the first of its listeners.
 * Always on, since counting costs next to nothing; the metrics support exposes these
 * counts.
 *
 * @see LockAdministration#getStatistics()
 */
public final class LockStatistics {

	private final LongAdder acquired = new LongAdder();

	private final LongAdder notAcquired = new LongAdder();

	private final LongAdder released = new LongAdder();

	private final LongAdder releaseMismatches = new LongAdder();

	private final LongAdder lost = new LongAdder();

	private final Counter counter = new Counter();

	/**
	 * Create statistics with every count at zero.
	 */
	public LockStatistics() {
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

	/**
	 * Return the listener that counts into these statistics, which their engine tells
	 * first of every lock event.
	 * @return the counting listener
	 */
	public LockListener counter() {
		return this.counter;
	}

	private final class Counter implements LockListener {

		@Override
		public void onAcquired(LockEvent.Acquired event) {
			LockStatistics.this.acquired.increment();
		}

		@Override
		public void onNotAcquired(LockEvent.NotAcquired event) {
			LockStatistics.this.notAcquired.increment();
		}

		@Override
		public void onReleased(LockEvent.Released event) {
			LockStatistics.this.released.increment();
		}

		@Override
		public void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
			LockStatistics.this.releaseMismatches.increment();
		}

		@Override
		public void onLost(LockEvent.Lost event) {
			LockStatistics.this.lost.increment();
		}

	}

	@Override
	public String toString() {
		return "LockStatistics[acquired=" + getAcquired() + ", notAcquired=" + getNotAcquired() + ", released="
				+ getReleased() + ", releaseMismatches=" + getReleaseMismatches() + ", lost=" + getLost() + "]";
	}

}
