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

package io.distlock.benchmarks.contenders;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The floor: raw Lettuce on one connection, no library. {@code SET key token NX PX} to
 * acquire and an {@code EVALSHA} compare-and-delete to release, two round trips. It has
 * no waiting strategy of its own: a busy lock is retried at once (spinning), which is
 * what a hand-written lock without notifications does at best.
 */
public final class LettuceFloorContender implements LockContender {

	private static final String RELEASE = """
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return redis.call('DEL', KEYS[1])
			end
			return 0""";

	private static final SetArgs ACQUIRE = SetArgs.Builder.nx().px(TimeUnit.SECONDS.toMillis(LEASE_SECONDS));

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisCommands<String, String> commands;

	private final String releaseSha;

	/**
	 * Connect to the given Redis.
	 * @param address the Redis
	 */
	public LettuceFloorContender(RedisAddress address) {
		this.client = RedisClient.create(RedisURI.create(address.host(), address.port()));
		this.connection = this.client.connect();
		this.commands = this.connection.sync();
		this.releaseSha = this.commands.scriptLoad(RELEASE);
	}

	@Override
	public void withLock(String key, Runnable body) {
		String token = UUID.randomUUID().toString();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
		while (!"OK".equals(this.commands.set(key, token, ACQUIRE))) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Lock '" + key + "' stayed busy");
			}
			Thread.onSpinWait();
		}
		try {
			body.run();
		}
		finally {
			this.commands.evalsha(this.releaseSha, ScriptOutputType.INTEGER, new String[] { key }, token);
		}
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
