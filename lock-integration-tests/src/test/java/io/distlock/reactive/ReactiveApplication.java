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

package io.distlock.reactive;

import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.ReactiveRedisLockClient;
import io.distlock.test.LockStack;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisEndpoint;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One application using distlock on a single Redis, wired as the auto-configuration does
 * it: a blocking and a reactive template sharing one waiter, release notifier and lease
 * renewer, those of a {@link LockStack}.
 */
final class ReactiveApplication implements AutoCloseable {

	final LeaseRenewer renewer;

	final LockTemplate blockingTemplate;

	final ReactiveLockTemplate template;

	private final LettuceConnectionFactory connectionFactory;

	private final LockStack stack;

	ReactiveApplication(RedisEndpoint redis) {
		this(redis, LockSettings.defaults());
	}

	ReactiveApplication(RedisEndpoint redis, LockSettings settings) {
		// Made here rather than by the stack: the reactive client needs it as a reactive
		// one.
		this.connectionFactory = RedisConnections.connectionFactory(redis);
		this.stack = LockStack.on(this.connectionFactory).build();
		this.renewer = this.stack.renewer();
		this.blockingTemplate = this.stack.template(settings);
		this.template = new ReactiveLockTemplate(new ReactiveRedisLockClient(this.connectionFactory),
				this.blockingTemplate.getEngine());
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
