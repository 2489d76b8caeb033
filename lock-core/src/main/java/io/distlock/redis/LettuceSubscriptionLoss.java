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
import java.util.Arrays;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.CommandListenerWriter;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.protocol.CommandExpiryWriter;
import io.lettuce.core.pubsub.PubSubEndpoint;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Tells a {@link ClassicReleaseNotifier} when the Lettuce connection of its pattern
 * subscription drops. Lettuce reconnects and subscribes again by itself, which the
 * notifier hears as a new subscription, but Spring Data Redis's listener container is
 * told of neither, so the loss in between would go unnoticed.
 *
 * <p>
 * Loaded only when Lettuce is on the class path.
 */
final class LettuceSubscriptionLoss implements RedisConnectionStateListener {

	private final AbstractRedisClient client;

	private final byte[] pattern;

	private final Runnable onLost;

	private LettuceSubscriptionLoss(AbstractRedisClient client, String pattern, Runnable onLost) {
		this.client = client;
		this.pattern = pattern.getBytes(StandardCharsets.UTF_8);
		this.onLost = onLost;
	}

	/**
	 * Watch the pub/sub connections of the factory's client for the loss of one
	 * subscribed to the given pattern.
	 * @param connectionFactory the factory the subscription connects with
	 * @param pattern the subscribed pattern
	 * @param onLost called, on a Lettuce thread, when such a connection drops
	 * @return the watch, to {@link #close()}, or {@code null} if the factory is not a
	 * started Lettuce factory
	 */
	static @Nullable LettuceSubscriptionLoss watch(RedisConnectionFactory connectionFactory, String pattern,
			Runnable onLost) {
		if (!(connectionFactory instanceof LettuceConnectionFactory lettuce) || lettuce.getNativeClient() == null) {
			return null;
		}
		LettuceSubscriptionLoss watch = new LettuceSubscriptionLoss(lettuce.getNativeClient(), pattern, onLost);
		watch.client.addListener(watch);
		return watch;
	}

	@Override
	public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
		if (isSubscribedToPattern(connection.getChannelWriter())) {
			this.onLost.run();
		}
	}

	/**
	 * Stop watching.
	 */
	void close() {
		this.client.removeListener(this);
	}

	private boolean isSubscribedToPattern(RedisChannelWriter writer) {
		RedisChannelWriter endpoint = unwrap(writer);
		if (!(endpoint instanceof PubSubEndpoint<?, ?> pubSub)) {
			return false;
		}
		// Patterns survive the disconnection: Lettuce subscribes to them again on
		// reconnecting.
		for (Object subscribed : pubSub.getPatterns()) {
			if (subscribed instanceof byte[] bytes && Arrays.equals(bytes, this.pattern)) {
				return true;
			}
			if (subscribed instanceof String string
					&& Arrays.equals(string.getBytes(StandardCharsets.UTF_8), this.pattern)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The endpoint under the writers that Lettuce wraps around it to time commands out
	 * and to tell command listeners. Named rather than found through
	 * {@code io.lettuce.core.Delegating}, which they implement only as of Lettuce 7: both
	 * classes and their {@code getDelegate()} are in Lettuce 6 too, so this works on both
	 * generations (Spring Boot 3.5 brings Lettuce 6).
	 */
	private static RedisChannelWriter unwrap(RedisChannelWriter writer) {
		RedisChannelWriter endpoint = writer;
		while (true) {
			if (endpoint instanceof CommandExpiryWriter expiry) {
				endpoint = expiry.getDelegate();
			}
			else if (endpoint instanceof CommandListenerWriter listener) {
				endpoint = listener.getDelegate();
			}
			else {
				return endpoint;
			}
		}
	}

}
