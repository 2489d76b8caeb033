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

package io.distlock.redis;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Loads every lock script into Redis once Redis has answered, so that the first renewal
 * or release does not pay an extra round trip for Redis to learn its script (EVALSHA,
 * NOSCRIPT, then EVAL).
 *
 * <p>
 * The scripts load on a thread of their own, over the connection they run on, one
 * {@code SCRIPT LOAD} after the other: the acquisition that triggers it must not wait,
 * since its lease is already running (a pipeline here used to open a connection of its
 * own, which on a slow link took longer than a short lease). After a Redis restart the
 * scripts load again on first use.
 */
final class ScriptPreloader {

	// Logged as the lock client, where users look for it.
	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	private final ScriptRunner redis;

	private volatile boolean loaded;

	ScriptPreloader(ScriptRunner redis) {
		this.redis = redis;
	}

	/**
	 * Start loading the scripts in the background, unless that was tried before.
	 */
	void loadOnce() {
		if (this.loaded) {
			return;
		}
		// Tried once: if it fails, the scripts still load on first use.
		this.loaded = true;
		Thread loader = new Thread(this::load, "distlock-script-loader");
		loader.setDaemon(true);
		loader.start();
	}

	private void load() {
		try {
			// On the connection the scripts run on: opened here, if not yet, and kept.
			for (LockScript<?> script : LockScripts.ALL) {
				this.redis.load(script);
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Could not load the lock scripts ahead of use; they load on first use instead", ex);
		}
	}

}
