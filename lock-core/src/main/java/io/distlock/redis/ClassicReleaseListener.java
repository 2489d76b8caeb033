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
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.waiting.LockWaiter;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * Turns the messages of a {@link ClassicReleaseNotifier}'s pattern subscription into
 * signals, and each new subscription into a signal for everyone, since releases may have
 * been missed while there was none.
 */
final class ClassicReleaseListener implements MessageListener, SubscriptionListener {

	// Logged as the notifier, the type that users configure and look for.
	private static final Log logger = LogFactory.getLog(RedisReleaseNotifier.class);

	private final LockWaiter waiter;

	private final Runnable onSubscribed;

	private final AtomicLong subscriptions = new AtomicLong();

	/**
	 * Create a listener that signals the given waiter.
	 * @param onSubscribed told first whenever Redis confirms the subscription
	 */
	ClassicReleaseListener(LockWaiter waiter, Runnable onSubscribed) {
		this.waiter = waiter;
		this.onSubscribed = onSubscribed;
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		this.waiter.signal(new String(message.getBody(), StandardCharsets.UTF_8));
	}

	@Override
	public void onPatternSubscribed(byte[] pattern, long count) {
		this.onSubscribed.run();
		if (this.subscriptions.getAndIncrement() > 0) {
			logger.info("Resubscribed to lock releases; waking " + this.waiter.waiting()
					+ " waiting thread(s), as releases may have been missed meanwhile");
		}
		this.waiter.signalAll();
	}

}
