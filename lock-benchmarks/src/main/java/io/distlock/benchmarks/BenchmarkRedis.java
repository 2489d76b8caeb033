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

package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.test.RedisServer;

/**
 * The Redis a benchmark JVM runs against. {@link BenchmarkMain} starts it through the
 * test harness and hands its address to every forked JVM in the system property
 * {@value #REDIS_PROPERTY}; a benchmark started without it (from an IDE, say) starts a
 * {@code redis-server} of its own, stopped when the JVM exits.
 */
public final class BenchmarkRedis {

	/**
	 * The system property with the {@code host:port} of the Redis to use.
	 */
	public static final String REDIS_PROPERTY = "distlock.bench.redis";

	/**
	 * The system property with the comma-separated {@code host:port} of the Redlock
	 * nodes.
	 */
	public static final String REDLOCK_PROPERTY = "distlock.bench.redlock";

	private static @Nullable RedisServer ownServer;

	private BenchmarkRedis() {
	}

	/**
	 * Return the Redis to benchmark against, starting one if none was given.
	 * @return its address
	 */
	public static synchronized RedisAddress address() {
		String given = System.getProperty(REDIS_PROPERTY);
		if (given != null) {
			return RedisAddress.parse(given);
		}
		if (ownServer == null) {
			RedisServer server = RedisServer.start();
			Runtime.getRuntime().addShutdownHook(new Thread(server::close, "benchmark-redis-shutdown"));
			ownServer = server;
		}
		return new RedisAddress(ownServer.host(), ownServer.port());
	}

	/**
	 * Return the Redlock nodes given by {@link BenchmarkMain}.
	 * @return their addresses
	 * @throws IllegalStateException if none were given
	 */
	public static List<RedisAddress> redlockNodes() {
		String given = System.getProperty(REDLOCK_PROPERTY);
		if (given == null || given.isBlank()) {
			throw new IllegalStateException("No Redlock nodes: run through BenchmarkMain, or set -D" + REDLOCK_PROPERTY
					+ "=127.0.0.1:port,...");
		}
		return Arrays.stream(given.split(",")).map(RedisAddress::parse).toList();
	}

}
