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

package io.distlock.engine;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Gives back, off the caller's path, what a failed or abandoned attempt may have taken:
 * the caller gets its failure at once instead of one more command timeout later.
 */
final class LockGiveBack {

	/**
	 * One thread for the whole application: the calls are few (one per failed attempt)
	 * and each is bounded by the command timeout.
	 */
	static final Executor SHARED_EXECUTOR = executor();

	private static final Log logger = LogFactory.getLog(StoreAcquirer.class);

	private final Executor executor;

	LockGiveBack(Executor executor) {
		this.executor = executor;
	}

	/**
	 * Release the key later, owner-checked; a failure is logged at DEBUG.
	 * @param what what the release does, for the log: "give back", "withdraw from"
	 * @param consequence what follows when it fails, for the log
	 */
	void releaseLater(String key, String ownerToken, LockKind kind, String what, String consequence) {
		try {
			this.executor.execute(() -> {
				try {
					kind.release(key, ownerToken);
				}
				catch (RuntimeException ex) {
					logger.debug("Could not " + what + " lock '" + key + "' after " + consequence, ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Too many calls queued to " + what + " lock '" + key + "'", ex);
		}
	}

	private static Executor executor() {
		return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(10_000), (task) -> {
			Thread thread = new Thread(task, "distlock-give-back");
			thread.setDaemon(true);
			return thread;
		});
	}

}
