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

import io.distlock.waiting.LockWaiter;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Wakes the threads waiting for a lock when it is released: turns each release that
 * {@link RedisLockClient} publishes into a {@link LockWaiter#signal}, in one of two ways.
 * <ul>
 * <li>{@link #RedisReleaseNotifier(RedisConnectionFactory, LockWaiter) The constructor}:
 * one pattern subscription to the release channels of all locks, on one connection for
 * the whole application. Whenever the subscription is established, at start and again
 * after its connection was lost and came back, every waiter is woken, since releases
 * published in between were missed.</li>
 * <li>{@link #sharded(LettuceConnectionFactory, LockWaiter)}, for Redis Cluster through
 * Lettuce: sharded pub/sub (Redis 7 and later), the lock's release channel subscribed
 * with {@code SSUBSCRIBE} while a thread of this application waits for that lock. A
 * sharded message travels only within the shard that serves the lock's slot, where a
 * classic message is broadcast to every node of the cluster. After the cluster's topology
 * changes, every channel waited for is subscribed again, on the node that serves it now,
 * and its waiters are woken. Pair it with
 * {@link RedisLockClient#setShardedReleaseMessages(boolean)}; on Redis before 7 it falls
 * back on the classic subscription. Its log category is
 * {@code io.distlock.redis.ShardedReleaseNotifier}.</li>
 * </ul>
 *
 * <p>
 * Messages are handled right on the thread that reads them, as signalling only unparks a
 * thread. When the Redis user may not subscribe, one warning is logged and waiters poll
 * with backoff. Start it (as a Spring bean it is started with the context) and close it
 * when done.
 */
public class RedisReleaseNotifier implements SmartLifecycle, AutoCloseable {

	/**
	 * The default lifecycle phase: after the connection factory (phase 0) and before the
	 * web server's graceful shutdown ({@code DEFAULT_PHASE - 1024} and {@code - 2048}),
	 * so that requests still draining are woken.
	 */
	public static final int DEFAULT_PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private final ReleaseNotifier notifier;

	private int phase = DEFAULT_PHASE;

	/**
	 * Create a notifier that signals the given waiter through one pattern subscription to
	 * the release channels of all locks.
	 * @param connectionFactory the connection factory to subscribe with; the notifier
	 * takes one connection of it while running
	 * @param waiter the waiter that the lock template parks its callers with
	 */
	public RedisReleaseNotifier(RedisConnectionFactory connectionFactory, LockWaiter waiter) {
		this(new ClassicReleaseNotifier(connectionFactory, waiter));
	}

	private RedisReleaseNotifier(ReleaseNotifier notifier) {
		this.notifier = notifier;
	}

	/**
	 * Create a notifier that signals the given waiter through sharded pub/sub on Redis
	 * Cluster: a lock's release channel is subscribed while a thread of this application
	 * waits for that lock, and unsubscribed when none does.
	 * @param connectionFactory the factory of a Redis Cluster connection
	 * @param waiter the waiter that the lock template parks its callers with
	 * @return the notifier
	 * @see RedisLockClient#setShardedReleaseMessages(boolean)
	 */
	public static RedisReleaseNotifier sharded(LettuceConnectionFactory connectionFactory, LockWaiter waiter) {
		return new RedisReleaseNotifier(new ShardedReleaseNotifier(connectionFactory, waiter));
	}

	/**
	 * Subscribe to the release channels (sharded: connect for subscriptions and follow
	 * the waiters from now on), waiting a little for the classic subscription. Redis
	 * being unreachable does not fail the start: the subscription is retried in the
	 * background, and waiters fall back on their backoff meanwhile.
	 */
	@Override
	public void start() {
		this.notifier.start();
	}

	/**
	 * Unsubscribe and give the connection back. Waiters keep working on their backoff.
	 * Not final: {@link #start()} subscribes again. Spring's {@code pause()} of the
	 * context stops it too, and its {@code restart()} starts it again.
	 */
	@Override
	public void stop() {
		this.notifier.stop();
	}

	@Override
	public boolean isRunning() {
		return this.notifier.isRunning();
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

	/**
	 * Tell whether release notifications reach this application's waiters: the
	 * subscription is confirmed by Redis and its connection not lost since (sharded: the
	 * subscription connection is open, or, on Redis before 7, the classic subscription is
	 * up). It is not before the first confirmation, while the connection is down (until
	 * the driver reconnects and subscribes again), when the Redis user may not subscribe,
	 * and once stopped. Waiters then notice releases by polling with backoff instead of
	 * being woken.
	 * <p>
	 * A lost connection is noticed as it drops with Lettuce; with other drivers, once the
	 * listener container stops listening.
	 * @return whether waiters are woken on release
	 */
	public boolean isSubscribed() {
		return this.notifier.isSubscribed();
	}

	/**
	 * Set the lifecycle phase; {@link #DEFAULT_PHASE} by default.
	 * @param phase the phase
	 */
	public void setPhase(int phase) {
		this.phase = phase;
	}

	/**
	 * Stop and release the resources of the subscriptions for good.
	 */
	@Override
	public void close() {
		this.notifier.close();
	}

}
