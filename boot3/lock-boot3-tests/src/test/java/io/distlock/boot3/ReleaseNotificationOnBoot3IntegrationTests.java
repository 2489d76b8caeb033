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
package io.distlock.boot3;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a Spring Boot 3.5 application's waiter is woken by the release message of
 * another application, through the release notifier that the Boot 3 starter subscribes
 * with Spring Data Redis 3.5 and Lettuce 6. The waiter backs off 30 seconds between
 * attempts, so only the message can wake it within the few seconds the test allows.
 */
@SpringBootTest(classes = Boot3Application.class)
@Import(ReleaseNotificationOnBoot3IntegrationTests.SlowPolling.class)
@DirtiesContext
class ReleaseNotificationOnBoot3IntegrationTests {

	private static final Duration BACKOFF = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Autowired
	private Ledger ledger;

	@Autowired
	private LockWaiter lockWaiter;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		Boot3Redis.connectTo(redis, registry);
	}

	@Test
	void waiterIsWokenByAnotherApplicationsRelease() throws Exception {
		LettuceConnectionFactory connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
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
