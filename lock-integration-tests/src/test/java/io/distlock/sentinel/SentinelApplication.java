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

package io.distlock.sentinel;

import java.time.Duration;
import java.util.HashSet;

import io.distlock.LockTemplate;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.LockStack;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.waiting.LockWaiter;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One application locking through Sentinel: its own connection factory, and a
 * {@link LockStack} on it (waiter, release notifier, lease renewer and template), as a
 * Spring Boot application would have.
 */
final class SentinelApplication implements AutoCloseable {

	private final LettuceConnectionFactory connectionFactory;

	private final LockStack stack;

	private SentinelApplication(RedisSentinelGroup group, LockWaiter waiter) {
		this.connectionFactory = connectionFactory(group);
		try {
			this.stack = LockStack.on(this.connectionFactory).waiter(waiter).build();
		}
		catch (RuntimeException ex) {
			this.connectionFactory.destroy();
			throw ex;
		}
	}

	/**
	 * Start an application whose waiters back off up to the given time when no release
	 * wakes them.
	 */
	static SentinelApplication start(RedisSentinelGroup group, Duration maxBackoff) {
		return new SentinelApplication(group, new LockWaiter(maxBackoff, maxBackoff));
	}

	/**
	 * Create and start a connection factory that finds the primary through the sentinels,
	 * with the harness's short timeouts.
	 */
	static LettuceConnectionFactory connectionFactory(RedisSentinelGroup group) {
		RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration(group.masterName(),
				new HashSet<>(group.sentinelAddresses()));
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(RedisConnections.TIMEOUT)
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(RedisConnections.TIMEOUT).build())
				.build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(sentinel, client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	LettuceConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	LockWaiter waiter() {
		return this.stack.waiter();
	}

	RedisLockClient client() {
		return this.stack.client();
	}

	LockTemplate template() {
		return this.stack.template();
	}

	@Override
	public void close() {
		try {
			this.stack.close();
		}
		finally {
			this.connectionFactory.destroy();
		}
	}

}
