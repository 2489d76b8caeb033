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

import java.time.Duration;

import io.distlock.LockTemplate;
import io.distlock.lease.LeaseRenewer;
import io.distlock.waiting.LockWaiter;
import io.distlock.redis.ReactiveRedisLockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisEndpoint;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One application using distlock on a single Redis, wired as the auto-configuration does
 * it: a blocking and a reactive template sharing one waiter, release notifier and lease
 * renewer.
 */
final class ReactiveApplication implements AutoCloseable {

	final LettuceConnectionFactory connectionFactory;

	final LeaseRenewer renewer;

	final LockTemplate blockingTemplate;

	final ReactiveLockTemplate template;

	private final RedisReleaseNotifier notifier;

	ReactiveApplication(RedisEndpoint redis) {
		this.connectionFactory = RedisConnections.connectionFactory(redis);
		RedisLockClient client = new RedisLockClient(this.connectionFactory);
		LockWaiter waiter = new LockWaiter(Duration.ofMillis(500));
		this.notifier = new RedisReleaseNotifier(this.connectionFactory, waiter);
		this.notifier.start();
		this.renewer = new LeaseRenewer(client, Duration.ofHours(1));
		this.blockingTemplate = new LockTemplate(client, waiter);
		this.blockingTemplate.getSettings().setLeaseRenewer(this.renewer);
		this.template = new ReactiveLockTemplate(new ReactiveRedisLockClient(this.connectionFactory), waiter,
				this.blockingTemplate.getSettings());
	}

	@Override
	public void close() {
		this.notifier.stop();
		this.renewer.close();
		this.connectionFactory.destroy();
	}

}
