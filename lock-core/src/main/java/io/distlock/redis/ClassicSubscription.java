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

import java.time.Duration;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Starts the listener container of a {@link ClassicReleaseNotifier}'s subscription and,
 * while Redis cannot be reached, tries again on a thread of its own, with a backoff from
 * {@link #INITIAL_RETRY} up to {@link #MAX_RETRY}, until it works or the notifier stops.
 * A Redis user that may not subscribe is told once, and not asked again.
 */
final class ClassicSubscription {

	static final Duration INITIAL_RETRY = Duration.ofMillis(100);

	static final Duration MAX_RETRY = Duration.ofSeconds(5);

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(RedisReleaseNotifier.class);

	private final RedisMessageListenerContainer container;

	private final LockWaiter waiter;

	private final Lock lifecycleLock;

	private final BooleanSupplier running;

	private @Nullable Thread retry;

	private int failedSubscriptions;

	/**
	 * Create the subscription of a notifier.
	 * @param lifecycleLock the notifier's lock, which its start and stop hold
	 * @param running whether the notifier is running
	 */
	ClassicSubscription(RedisMessageListenerContainer container, LockWaiter waiter, Lock lifecycleLock,
			BooleanSupplier running) {
		this.container = container;
		this.waiter = waiter;
		this.lifecycleLock = lifecycleLock;
		this.running = running;
	}

	/**
	 * Subscribe now or, failing that, in the background. The caller holds the lifecycle
	 * lock.
	 */
	void start() {
		if (!subscribe()) {
			Thread retry = new Thread(this::retrySubscription, "distlock-release-subscription-retry");
			retry.setDaemon(true);
			retry.start();
			this.retry = retry;
		}
	}

	/**
	 * Stop trying and unsubscribe. The caller holds the lifecycle lock.
	 */
	void stop() {
		Thread retry = this.retry;
		if (retry != null) {
			retry.interrupt();
			this.retry = null;
		}
		this.container.stop();
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
				logger.warn(notSubscribed(ex));
			}
			else {
				logger.debug("Could not subscribe to lock releases", ex);
			}
			return false;
		}
	}

	private String notSubscribed(RuntimeException ex) {
		RedisConnectionFactory factory = this.container.getConnectionFactory();
		String redis = (factory != null) ? RedisAddress.describe(factory) : "Redis";
		if (RedisAddress.isUnreachable(ex)) {
			return redis + " is unreachable (" + ex.getMessage() + "). Until it is back, no lock can be taken: "
					+ "each attempt fails with a LockBackendException. Callers waiting for "
					+ "a busy lock are not woken when it is released, but try again after a backoff of up to "
					+ this.waiter.getMaxBackoff().toMillis() + "ms, until the subscription to lock releases, "
					+ "retried in the background, is made.";
		}
		return "Could not subscribe to lock releases on " + redis + ", retrying in the background; until then "
				+ "callers waiting for a busy lock try again after a backoff of up to "
				+ this.waiter.getMaxBackoff().toMillis() + "ms: " + ex.getMessage();
	}

	/**
	 * Return the warning that release notifications are off as the Redis user may not
	 * subscribe, for the classic and the sharded notifier alike.
	 */
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
				if (!this.running.getAsBoolean() || Thread.currentThread() != this.retry) {
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

}
