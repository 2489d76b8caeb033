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
	public void onAcquired(String key, long fencingToken, Duration waited) {
		emit((listener) -> listener.onAcquired(key, fencingToken, waited));
	}

	@Override
	public void onNotAcquired(String key, Duration waited) {
		emit((listener) -> listener.onNotAcquired(key, waited));
	}

	@Override
	public void onReleased(String key, Duration held) {
		emit((listener) -> listener.onReleased(key, held));
	}

	@Override
	public void onReleaseMismatch(String key, Duration held) {
		emit((listener) -> listener.onReleaseMismatch(key, held));
	}

	@Override
	public void onReleaseFailed(String key, Duration held, Throwable failure) {
		emit((listener) -> listener.onReleaseFailed(key, held, failure));
	}

	@Override
	public void onLost(String key, long fencingToken, Thread holder) {
		emit((listener) -> listener.onLost(key, fencingToken, holder));
	}

	@Override
	public void onAcquired(String key, String name, long fencingToken, Duration waited) {
		emit((listener) -> listener.onAcquired(key, name, fencingToken, waited));
	}

	@Override
	public void onNotAcquired(String key, String name, Duration waited) {
		emit((listener) -> listener.onNotAcquired(key, name, waited));
	}

	@Override
	public void onReleased(String key, String name, Duration held) {
		emit((listener) -> listener.onReleased(key, name, held));
	}

	@Override
	public void onReleaseMismatch(String key, String name, Duration held) {
		emit((listener) -> listener.onReleaseMismatch(key, name, held));
	}

	@Override
	public void onReleaseFailed(String key, String name, Duration held, Throwable failure) {
		emit((listener) -> listener.onReleaseFailed(key, name, held, failure));
	}

	@Override
	public void onLost(String key, String name, long fencingToken, Thread holder) {
		emit((listener) -> listener.onLost(key, name, fencingToken, holder));
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
