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

package io.distlock.lease;

import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Hands the notifications of a lost lock's listeners to the listener threads of a
 * {@link LeaseRenewer}, logging a notification that failed or could not be handed over.
 *
 * @see LeaseRenewer#notifyListeners(String, Runnable)
 */
final class ListenerDispatch {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final Executor listeners;

	/**
	 * Create a dispatch onto the given executor.
	 * @param listeners runs the notifications
	 */
	ListenerDispatch(Executor listeners) {
		this.listeners = listeners;
	}

	/**
	 * Run the notification on a listener thread.
	 * @param key the key of the lost lock, for the log
	 * @param notification what tells the listeners; a failure of it is logged
	 */
	void dispatch(String key, Runnable notification) {
		try {
			this.listeners.execute(() -> {
				try {
					notification.run();
				}
				catch (Throwable ex) {
					logger.warn("A listener of lost lock '" + key + "' failed", ex);
				}
			});
		}
		catch (RuntimeException ex) {
			logger.warn(
					"Could not tell the listeners of lost lock '" + key + "': their threads are busy or were shut down",
					ex);
		}
	}

}
