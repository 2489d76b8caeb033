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
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that {@link LettuceSubscriptionLoss}, compiled against Lettuce 7, finds the
 * pub/sub endpoint under Lettuce 6's writers and tells of the loss of a pattern
 * subscription's connection.
 */
class LettuceSubscriptionLossOnLettuce6IntegrationTests {

	private static final String PATTERN = "boot3-test:*";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Test
	void killedPatternSubscriptionConnectionIsToldOnLettuce6() throws Exception {
		assertThat(RedisClient.class.getPackage().getImplementationVersion()).startsWith("6.");
		LettuceConnectionFactory connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(connectionFactory);
		container.addMessageListener((message, pattern) -> {
		}, new PatternTopic(PATTERN));
		AtomicInteger losses = new AtomicInteger();
		LettuceSubscriptionLoss watch = LettuceSubscriptionLoss.watch(connectionFactory, PATTERN,
				losses::incrementAndGet);
		try {
			assertThat(watch).isNotNull();
			container.afterPropertiesSet();
			container.start();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> 1L == (Long) redis.endpoint().command("PUBSUB", "NUMPAT"));
			redis.endpoint().command("CLIENT", "KILL", "TYPE", "pubsub");
			await().atMost(Duration.ofSeconds(5)).until(() -> losses.get() > 0);
		}
		finally {
			if (watch != null) {
				watch.close();
			}
			container.destroy();
			connectionFactory.destroy();
		}
	}

}
