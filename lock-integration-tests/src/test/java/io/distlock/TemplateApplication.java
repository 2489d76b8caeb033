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

package io.distlock;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.Renewal;
import io.distlock.test.LockStack;
import io.distlock.test.RedisEndpoint;
import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * One application locking through a {@link LockTemplate} on one Redis server, wired as
 * the auto-configuration does it, by a {@link LockStack}: its own connection factory,
 * lock client, release notifier, waiter and lease renewer. Tests start two of them to
 * contend as two applications would.
 */
final class TemplateApplication implements AutoCloseable {

	final LockStack stack;

	final RedisLockClient client;

	final LockWaiter waiter;

	final LeaseRenewer renewer;

	final LockTemplate template;

	private TemplateApplication(RedisEndpoint endpoint, LockWaiter waiter,
			Function<RedisConnectionFactory, RedisLockClient> clientFactory) {
		this.stack = LockStack.on(endpoint)
			.commandTimeout(Duration.ofSeconds(5))
			.client(clientFactory)
			.waiter(waiter)
			.build();
		// Connected and warmed up as in a running application: the first command of a JVM
		// takes longer than the shortest leases of the tests.
		try (RedisConnection connection = this.stack.connectionFactory().getConnection()) {
			connection.ping();
		}
		this.client = this.stack.client();
		// So are the renewal scripts, of locks and read holds and of permits: a first
		// renewal slower than a lease of 300 ms would lose it.
		this.client.renewAll(List.of(new Renewal("lock:warm-up", "nobody", Duration.ofSeconds(1)),
				new Renewal("{lock:warm-up}\u001fpermits\u001flock:warm-up", "nobody", Duration.ofSeconds(1))));
		this.waiter = this.stack.waiter();
		this.renewer = this.stack.renewer();
		this.template = this.stack.template();
	}

	/**
	 * Start an application whose waiters retry at most every 200 ms without a release
	 * notification.
	 */
	static TemplateApplication start(RedisEndpoint endpoint) {
		return start(endpoint, new LockWaiter(Duration.ofMillis(20), Duration.ofMillis(200)));
	}

	/**
	 * Start an application whose waiters park with the given waiter.
	 */
	static TemplateApplication start(RedisEndpoint endpoint, LockWaiter waiter) {
		return start(endpoint, waiter, RedisLockClient::new);
	}

	/**
	 * Start an application whose waiters park with the given waiter, over a lock client
	 * made by the given factory from the application's connection factory.
	 */
	static TemplateApplication start(RedisEndpoint endpoint, LockWaiter waiter,
			Function<RedisConnectionFactory, RedisLockClient> clientFactory) {
		return new TemplateApplication(endpoint, waiter, clientFactory);
	}

	@Override
	public void close() {
		this.stack.close();
	}

}
