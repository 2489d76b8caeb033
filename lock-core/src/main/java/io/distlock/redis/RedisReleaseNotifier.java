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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.waiting.LockWaiter;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Wakes the threads waiting for a lock when it is released: one pattern subscription to
 * the release channels of all locks, on one connection for the whole application, turns
 * each release that {@link RedisLockClient} publishes into a {@link LockWaiter#signal}.
 *
 * <p>
 * Whenever the subscription is established, at start and again after its connection was
 * lost and came back, every waiter is woken, since releases published in between were
 * missed. Messages are handled right on the thread that reads them, as signalling only
 * unparks a thread. Start it (as a Spring bean it is started with the context) and close
 * it when done.
 */
public class RedisReleaseNotifier implements SmartLifecycle, AutoCloseable {

	/**
	 * The default lifecycle phase: after the connection factory (phase 0) and before the
	 * web server's graceful shutdown ({@code DEFAULT_PHASE - 1024} and {@code - 2048}),
	 * so that requests still draining are woken.
	 */
	public static final int DEFAULT_PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Duration INITIAL_RETRY = Duration.ofMillis(100);

	private static final Duration MAX_RETRY = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(RedisReleaseNotifier.class);

	private final LockWaiter waiter;

	private final RedisConnectionFactory connectionFactory;

	private final RedisMessageListenerContainer container;

	private final AtomicLong subscriptions = new AtomicLong();

	private final Lock lifecycleLock = new ReentrantLock();

	private volatile boolean running;

	// Confirmed by Redis, and its connection not lost since.
	private volatile boolean subscribed;

	private @Nullable LettuceSubscriptionLoss lossWatch;

	private @Nullable Thread retry;

	private int failedSubscriptions;

	private int phase = DEFAULT_PHASE;

	/**
	 * Create a notifier that signals the given waiter.
	 * @param connectionFactory the connection factory to subscribe with; the notifier
	 * takes one connection of it while running
	 * @param waiter the waiter that the lock template parks its callers with
	 */
	public RedisReleaseNotifier(RedisConnectionFactory connectionFactory, LockWaiter waiter) {
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
		ExponentialBackOff recovery = new ExponentialBackOff(INITIAL_RETRY.toMillis(), 2);
		recovery.setMaxInterval(MAX_RETRY.toMillis());
		this.container.setRecoveryBackoff(recovery);
		this.container.addMessageListener(new ReleaseListener(), new PatternTopic(RedisLockKeys.CHANNEL_PATTERN));
		this.container.afterPropertiesSet();
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
			if (!subscribe()) {
				Thread retry = new Thread(this::retrySubscription, "distlock-release-subscription-retry");
				retry.setDaemon(true);
				retry.start();
				this.retry = retry;
			}
		}
		finally {
			this.lifecycleLock.unlock();
		}
	}

	/**
	 * Unsubscribe and give the connection back. Waiters keep working on their backoff.
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
			Thread retry = this.retry;
			if (retry != null) {
				retry.interrupt();
				this.retry = null;
			}
			this.container.stop();
		}
		finally {
			this.lifecycleLock.unlock();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
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
	 * @return whether waiters are woken on release
	 */
	public boolean isSubscribed() {
		return this.running && this.subscribed && this.container.isListening();
	}

	/**
	 * Set the lifecycle phase; {@link #DEFAULT_PHASE} by default.
	 * @param phase the phase
	 */
	public void setPhase(int phase) {
		this.phase = phase;
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
				RedisReleaseNotifier.class.getClassLoader())) {
			this.lossWatch = LettuceSubscriptionLoss.watch(this.connectionFactory, RedisLockKeys.CHANNEL_PATTERN,
					() -> this.subscribed = false);
		}
	}

	private boolean subscribe() {
		try {
			this.container.start();
			return true;
		}
		catch (RuntimeException ex) {
			// Stopped, so that the next start tries again instead of doing nothing.
			this.container.stop();
			if (RedisCalls.isRedisError(ex, "NOPERM")) {
				// Asking again will not help: the ACL rule has to change.
				logger.warn(notificationsOff(this.waiter, ex));
				return true;
			}
			if (this.failedSubscriptions++ == 0) {
				logger.warn("Could not subscribe to lock releases, retrying in the background; until then waiting "
						+ "callers poll with backoff: " + ex.getMessage());
			}
			else {
				logger.debug("Could not subscribe to lock releases", ex);
			}
			return false;
		}
	}

	static String notificationsOff(LockWaiter waiter, Throwable ex) {
		return "Lock release notifications are off: the Redis user may not subscribe to the release channels ("
				+ ex.getMessage() + "). Locks still work, but a waiting caller only notices a release when it "
				+ "tries again: when the holder's lease would have ended, or after its backoff of up to "
				+ waiter.getMaxBackoff().toMillis() + "ms. Allow the channel pattern '" + RedisLockKeys.CHANNEL_PATTERN
				+ "' in the user's ACL rule to have waiters woken on release.";
	}

	private void retrySubscription() {
		long backoff = INITIAL_RETRY.toMillis();
		while (true) {
			try {
				Thread.sleep(backoff);
			}
			catch (InterruptedException ex) {
				return;
			}
			this.lifecycleLock.lock();
			try {
				if (!this.running || Thread.currentThread() != this.retry) {
					return;
				}
				if (subscribe()) {
					this.retry = null;
					return;
				}
			}
			finally {
				this.lifecycleLock.unlock();
			}
			backoff = Math.min(backoff * 2, MAX_RETRY.toMillis());
		}
	}

	/**
	 * Turns messages into signals, and a new subscription into a signal for everyone.
	 */
	private final class ReleaseListener implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte @Nullable [] pattern) {
			RedisReleaseNotifier.this.waiter.signal(new String(message.getBody(), StandardCharsets.UTF_8));
		}

		@Override
		public void onPatternSubscribed(byte[] pattern, long count) {
			LockWaiter waiter = RedisReleaseNotifier.this.waiter;
			RedisReleaseNotifier.this.subscribed = true;
			if (RedisReleaseNotifier.this.subscriptions.getAndIncrement() > 0) {
				logger.info("Resubscribed to lock releases; waking " + waiter.waiting()
						+ " waiting thread(s), as releases may have been missed meanwhile");
			}
			waiter.signalAll();
		}

	}

}
