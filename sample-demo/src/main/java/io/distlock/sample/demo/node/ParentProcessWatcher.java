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

package io.distlock.sample.demo.node;

import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisServerCommands.ShutdownOption;

/**
 * Ends this JVM when the process that started it ends, so a node the demo started never
 * outlives the demo, even one killed with {@code kill -9}.
 */
final class ParentProcessWatcher {

	private static final Log logger = LogFactory.getLog(ParentProcessWatcher.class);

	private final long parentPid;

	private final boolean shutdownRedis;

	private final ObjectProvider<RedisConnectionFactory> redis;

	/**
	 * Start watching the given process.
	 * @param parentPid the process id to watch
	 * @param shutdownRedis whether to shut down the Redis server as well (the demo's own,
	 * which it can no longer stop itself)
	 * @param redis the connection to that Redis
	 */
	ParentProcessWatcher(long parentPid, boolean shutdownRedis, ObjectProvider<RedisConnectionFactory> redis) {
		this.parentPid = parentPid;
		this.shutdownRedis = shutdownRedis;
		this.redis = redis;
		Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
		if (parent.isPresent()) {
			parent.get().onExit().thenRun(this::parentEnded);
		}
		else {
			parentEnded();
		}
	}

	private void parentEnded() {
		logger.warn("Parent process " + this.parentPid + " has ended: stopping this node");
		if (this.shutdownRedis) {
			shutdownRedis();
		}
		// The shutdown hook closes the application context.
		System.exit(1);
	}

	private void shutdownRedis() {
		try (RedisConnection connection = this.redis.getObject().getConnection()) {
			connection.serverCommands().shutdown(ShutdownOption.NOSAVE);
		}
		catch (RuntimeException ex) {
			// Already gone, or shut down by another node: either way it is not running.
		}
	}

}
