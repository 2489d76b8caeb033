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

package io.distlock.test.assertion;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockEvent;
import io.distlock.LockListener;

/**
 * Records the locks that the threads running a {@link LockAssertion} take, from the
 * template's events: they fire on the thread that acquires and releases.
 */
final class LockAssertListener implements LockListener {

	private final ThreadLocal<@Nullable Recording> recording = new ThreadLocal<>();

	Recording start() {
		Recording recording = new Recording(this.recording.get());
		this.recording.set(recording);
		return recording;
	}

	void stop(Recording recording) {
		this.recording.set(recording.outer);
	}

	@Override
	public void onAcquired(LockEvent.Acquired event) {
		for (Recording recording = this.recording.get(); recording != null; recording = recording.outer) {
			recording.acquired.add(event.key());
		}
	}

	@Override
	public void onReleased(LockEvent.Released event) {
		for (Recording recording = this.recording.get(); recording != null; recording = recording.outer) {
			recording.released.add(event.key());
		}
	}

	/**
	 * The locks taken and released on one thread while one assertion ran its call; nested
	 * assertions each see the locks of their own call.
	 */
	static final class Recording {

		final @Nullable Recording outer;

		final List<String> acquired = new ArrayList<>();

		final List<String> released = new ArrayList<>();

		Recording(@Nullable Recording outer) {
			this.outer = outer;
		}

	}

}
