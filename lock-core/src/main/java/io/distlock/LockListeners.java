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

import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Fans lock events out to several listeners, so that one failing listener neither stops
 * the others nor breaks the lock operation that fired the event.
 */
final class LockListeners implements LockListener {

	private static final Log logger = LogFactory.getLog(LockListeners.class);

	private final List<LockListener> listeners;

	LockListeners(List<LockListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	@Override
	public void onAcquired(LockEvent.Acquired event) {
		emit((listener) -> listener.onAcquired(event));
	}

	@Override
	public void onNotAcquired(LockEvent.NotAcquired event) {
		emit((listener) -> listener.onNotAcquired(event));
	}

	@Override
	public void onReleased(LockEvent.Released event) {
		emit((listener) -> listener.onReleased(event));
	}

	@Override
	public void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
		emit((listener) -> listener.onReleaseMismatch(event));
	}

	@Override
	public void onReleaseFailed(LockEvent.ReleaseFailed event) {
		emit((listener) -> listener.onReleaseFailed(event));
	}

	@Override
	public void onLost(LockEvent.Lost event) {
		emit((listener) -> listener.onLost(event));
	}

	private void emit(Consumer<LockListener> event) {
		for (LockListener listener : this.listeners) {
			try {
				event.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("LockListener " + listener + " failed", ex);
			}
		}
	}

}
