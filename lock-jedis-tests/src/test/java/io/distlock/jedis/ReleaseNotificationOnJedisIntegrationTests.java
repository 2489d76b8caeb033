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

package io.distlock.jedis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Release notifications in an application whose Redis client is Jedis: a waiter polls so
 * rarely that only the release message of another application can wake it in time.
 */
@SpringBootTest(classes = JedisApplication.class)
@Import(ReleaseNotificationOnJedisIntegrationTests.SlowPolling.class)
@DirtiesContext
class ReleaseNotificationOnJedisIntegrationTests {

	private static final Duration BACKOFF = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Autowired
	private Ledger ledger;

	@Autowired
	private LockWaiter lockWaiter;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		JedisRedis.connectTo(redis, registry);
	}

	@Test
	void givenAWaiterWhenAnotherApplicationReleasesThenTheMessageWakesIt() throws Exception {
		wokenByAnotherApplicationsRelease();
	}

	@Test
	void givenRedisRestartedWhenAnotherApplicationReleasesThenTheSubscriptionIsBackAndWakesTheWaiter()
			throws Exception {
		redis.server(0).restart();
		// Jedis' subscription thread finds its connection gone and the listener container
		// subscribes again: the restarted server counts the pattern subscription.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Long.valueOf(1).equals(redis.endpoint().command("PUBSUB", "NUMPAT")));
		wokenByAnotherApplicationsRelease();
	}

	private void wokenByAnotherApplicationsRelease() throws Exception {
		JedisConnectionFactory connectionFactory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(redis.endpoint().host(), redis.endpoint().port()));
		connectionFactory.start();
		try {
			RedisLockClient otherApplication = new RedisLockClient(connectionFactory);
			String owner = UUID.randomUUID().toString();
			assertThat(otherApplication.tryAcquire("lock:ledger:7", owner, Duration.ofMinutes(1)))
				.isInstanceOf(AcquireResult.Acquired.class);
			CompletableFuture<Void> posted = CompletableFuture.runAsync(() -> this.ledger.post(7, () -> {
			}));
			// Released only once the waiter found the lock busy and announced itself (the
			// "waiters" name of the lock), so that nothing but the message can wake it.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.lockWaiter.waiting() == 1
						&& !((List<?>) redis.endpoint().command("KEYS", "*waiters*ledger:7")).isEmpty());
			assertThat(otherApplication.release("lock:ledger:7", owner)).isTrue();
			posted.get(5, TimeUnit.SECONDS);
		}
		finally {
			connectionFactory.destroy();
		}
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class SlowPolling {

		@Bean
		LockWaiter lockWaiter() {
			return new LockWaiter(BACKOFF, BACKOFF);
		}

	}

}
