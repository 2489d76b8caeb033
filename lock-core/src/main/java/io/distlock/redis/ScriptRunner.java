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

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * Runs the lock scripts: on a Lettuce connection of their own where the factory allows
 * one ({@link LettuceScripts}), otherwise on the connections the template hands out
 * (Jedis, Cluster, static replicas).
 */
final class ScriptRunner {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			ScriptRunner.class.getClassLoader());

	private final StringRedisTemplate template;

	private final @Nullable LettuceScripts lettuce;

	private volatile @Nullable Boolean cluster;

	private volatile @Nullable String server;

	ScriptRunner(StringRedisTemplate template) {
		this.template = template;
		this.lettuce = LETTUCE_PRESENT ? LettuceScripts.of(template.getConnectionFactory()) : null;
	}

	/**
	 * Run a script.
	 * @param script the script
	 * @param keys its keys
	 * @param args its arguments
	 * @return the reply: integers as {@link Long}, bulk strings as {@link String}
	 * @throws org.springframework.dao.DataAccessException if Redis failed
	 */
	<T> @Nullable T run(LockScript<T> script, List<String> keys, String... args) {
		try {
			if (this.lettuce != null && this.lettuce.isAvailable()) {
				return this.lettuce.run(script, keys, args);
			}
			return script.run(this.template, keys, args);
		}
		catch (DataAccessException ex) {
			throw RedisAddress.isUnanswered(ex) ? new Unanswered(
					server() + " did not answer: " + NestedExceptionUtils.getMostSpecificCause(ex).getMessage(), ex)
					: ex;
		}
	}

	// Read once: the factory's address and timeout do not change while it runs.
	private String server() {
		String server = this.server;
		if (server == null) {
			RedisConnectionFactory factory = this.template.getConnectionFactory();
			server = (factory != null) ? RedisAddress.describeWithTimeout(factory) : "Redis";
			this.server = server;
		}
		return server;
	}

	/**
	 * Load a script into the script cache of the server the scripts run on.
	 */
	void load(LockScript<?> script) {
		if (this.lettuce != null && this.lettuce.isAvailable()) {
			this.lettuce.load(script);
			return;
		}
		this.template.execute(
				(RedisCallback<String>) (connection) -> connection.scriptingCommands().scriptLoad(script.textBytes()));
	}

	/**
	 * Return the template, for what needs a connection of its own kind: waiting for
	 * replicas, asynchronous calls.
	 */
	StringRedisTemplate template() {
		return this.template;
	}

	/**
	 * Tell whether the scripts run on a Redis Cluster.
	 */
	boolean isCluster() {
		Boolean cluster = this.cluster;
		if (cluster == null) {
			// No Cluster has a connection of the scripts' own. Getting a connection of
			// the
			// template sends no command; the answer cannot change.
			cluster = this.lettuce == null && Boolean.TRUE.equals(this.template
				.execute((RedisCallback<Boolean>) (connection) -> connection instanceof RedisClusterConnection, true));
			this.cluster = cluster;
		}
		return cluster;
	}

	/**
	 * Redis did not answer a script: unreachable, or no reply within the command timeout.
	 * Its message names the server and the timeout, never credentials.
	 */
	static final class Unanswered extends DataAccessResourceFailureException {

		Unanswered(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
