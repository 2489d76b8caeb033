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

package io.distlock.faults.client;

import java.util.HashMap;
import java.util.Map;

import io.distlock.LockEvent;
import io.distlock.LockListener;
import org.jspecify.annotations.Nullable;

/**
 * Records what the library tells the application about its locks: lost locks into the
 * history, and the outcome of the release that the current thread just made (released, or
 * found the lock no longer held) for the worker to record.
 */
public final class HistoryListener implements LockListener {

	private final String client;

	private final HistoryWriter history;

	// By key: closing a multi-key handle releases several locks on this thread at once.
	private final ThreadLocal<Map<String, String>> releaseOutcomes = ThreadLocal.withInitial(HashMap::new);

	/**
	 * Create a listener.
	 * @param client the client id
	 * @param history the history to record into
	 */
	public HistoryListener(String client, HistoryWriter history) {
		this.client = client;
		this.history = history;
	}

	@Override
	public void onReleased(LockEvent.Released event) {
		this.releaseOutcomes.get().put(event.key(), "released");
	}

	@Override
	public void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
		this.releaseOutcomes.get().put(event.key(), "mismatch");
	}

	@Override
	public void onLost(LockEvent.Lost event) {
		this.history.event("lost", "c", this.client, "k", event.key(), "tok", event.fencingToken(), "ns",
				System.nanoTime(), "thread", event.holder().getName());
	}

	/**
	 * Return and forget the outcome of the last release of the key made by the current
	 * thread.
	 * @param key the lock key
	 * @return {@code released}, {@code mismatch}, or {@code null} if the library reported
	 * neither
	 */
	@Nullable String takeReleaseOutcome(String key) {
		return this.releaseOutcomes.get().remove(key);
	}

}
