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
 * Counts what happens to the locks of one {@link LockTemplate}, as a listener only the
 * template tells; callers read the counts through the {@link LockStatistics} view.
 */
final class LockCounters implements LockListener {

	final LongAdder acquired = new LongAdder();

	final LongAdder notAcquired = new LongAdder();

	final LongAdder released = new LongAdder();

	final LongAdder releaseMismatches = new LongAdder();

	final LongAdder lost = new LongAdder();

	@Override
	public void onAcquired(LockEvent.Acquired event) {
		this.acquired.increment();
	}

	@Override
	public void onNotAcquired(LockEvent.NotAcquired event) {
		this.notAcquired.increment();
	}

	@Override
	public void onReleased(LockEvent.Released event) {
		this.released.increment();
	}

	@Override
	public void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
		this.releaseMismatches.increment();
	}

	@Override
	public void onLost(LockEvent.Lost event) {
		this.lost.increment();
	}

}
