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

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.waiting.LockWaiter;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The classic release notifications of a {@link RedisReleaseNotifier}: one pattern
 * subscription to the release channels of all locks, on one connection for the whole
 * application, turns each release that {@link RedisLockClient} publishes into a
 * {@link LockWaiter#signal}.
 *
 * <p>
 * Whenever the subscription is established, at start and again after its connection was
 * lost and came back, every waiter is woken, since releases published in between were
 * missed. Messages are handled right on the thread that reads them, as signalling only
 * unparks a thread.
 */
final class ClassicReleaseNotifier implements ReleaseNotifier {

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(RedisReleaseNotifier.class);

	private final LockWaiter waiter;

	private final RedisConnectionFactory connectionFactory;

	private final RedisMessageListenerContainer container;

	private final Lock lifecycleLock = new ReentrantLock();

	private final ClassicSubscription subscription;

	private volatile boolean running;

	// Confirmed by Redis, and its connection not lost since.
	private volatile boolean subscribed;

	private @Nullable LettuceSubscriptionLoss lossWatch;

	ClassicReleaseNotifier(RedisConnectionFactory connectionFactory, LockWaiter waiter) {
		Assert.notNull(connectionFactory, "'connectionFactory' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		this.waiter = waiter;
		this.connectionFactory = connectionFactory;
		this.container = new RedisMessageListenerContainer();
		this.container.setConnectionFactory(connectionFactory);
		this.container.setTaskExecutor(new SyncTaskExecutor());
		// Only drivers with blocking subscriptions (Jedis) use it, for one long-lived
		// thread.
		SimpleAsyncTaskExecutor subscriptionExecutor = new SimpleAsyncTaskExecutor("distlock-release-subscription-");
		subscriptionExecutor.setDaemon(true);
		this.container.setSubscriptionExecutor(subscriptionExecutor);
		ExponentialBackOff recovery = new ExponentialBackOff(ClassicSubscription.INITIAL_RETRY.toMillis(), 2);
		recovery.setMaxInterval(ClassicSubscription.MAX_RETRY.toMillis());
		this.container.setRecoveryBackoff(recovery);
		this.container.addMessageListener(new ClassicReleaseListener(waiter, () -> this.subscribed = true),
				new PatternTopic(RedisLockKeys.CHANNEL_PATTERN));
		this.container.afterPropertiesSet();
		this.subscription = new ClassicSubscription(this.container, waiter, this.lifecycleLock, () -> this.running);
	}

	/**
	 * Subscribe to the release channels, waiting a little for the subscription. Redis
	 * being unreachable does not fail the start: the subscription is retried in the
	 * background, and waiters fall back on their backoff meanwhile.
	 */
	@Override
	public void start() {
		this.lifecycleLock.lock();
		try {
			if (this.running) {
				return;
			}
			this.running = true;
			watchForLoss();
			this.subscription.start();
		}
		finally {
			this.lifecycleLock.unlock();
		}
	}

	/**
	 * Unsubscribe and give the connection back. Waiters keep working on their backoff.
	 * Not final: {@link #start()} subscribes again.
	 */
	@Override
	public void stop() {
		this.lifecycleLock.lock();
		try {
			this.running = false;
			this.subscribed = false;
			LettuceSubscriptionLoss lossWatch = this.lossWatch;
			this.lossWatch = null;
			if (lossWatch != null) {
				lossWatch.close();
			}
			this.subscription.stop();
		}
		finally {
			this.lifecycleLock.unlock();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Tell whether the subscription to the release channels is up: confirmed by Redis and
	 * its connection not lost since. It is not before the first confirmation, while its
	 * connection is down (until the driver reconnects and subscribes again), when the
	 * Redis user may not subscribe, and once stopped. Waiters then notice releases by
	 * polling with backoff instead of being woken.
	 * <p>
	 * A lost connection is noticed as it drops with Lettuce; with other drivers, once the
	 * listener container stops listening.
	 */
	@Override
	public boolean isSubscribed() {
		return this.running && this.subscribed && this.container.isListening();
	}

	/**
	 * Stop and release the resources of the subscription for good.
	 */
	@Override
	public void close() {
		stop();
		try {
			this.container.destroy();
		}
		catch (Exception ex) {
			logger.warn("Failed to close the lock release subscription", ex);
		}
	}

	private void watchForLoss() {
		if (this.lossWatch == null && ClassUtils.isPresent("io.lettuce.core.RedisConnectionStateListener",
				ClassicReleaseNotifier.class.getClassLoader())) {
			this.lossWatch = LettuceSubscriptionLoss.watch(this.connectionFactory, RedisLockKeys.CHANNEL_PATTERN,
					() -> this.subscribed = false);
		}
	}

}
