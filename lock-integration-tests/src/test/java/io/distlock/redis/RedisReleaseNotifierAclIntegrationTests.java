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
import java.util.List;

import io.distlock.test.RedisConnections;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link RedisReleaseNotifier} logged in as an ACL user that may
 * not subscribe to the release channels: it gives up at once instead of retrying for
 * ever, and locks keep working without notifications.
 */
class RedisReleaseNotifierAclIntegrationTests {

	private static final String USER = "no-channels";

	private static final String PASSWORD = "secret";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final LockWaiter waiter = new LockWaiter(Duration.ofMillis(50));

	private LettuceConnectionFactory connectionFactory;

	private RedisReleaseNotifier notifier;

	@BeforeEach
	void createNotifierWithoutChannelPermission() {
		redis.endpoint().command("ACL", "LOG", "RESET");
		redis.endpoint().command("ACL", "SETUSER", USER, "on", ">" + PASSWORD, "~*", "+@all", "resetchannels");
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint(), USER, PASSWORD);
		this.notifier = new RedisReleaseNotifier(this.connectionFactory, this.waiter);
	}

	@AfterEach
	void closeNotifier() {
		this.notifier.close();
		this.connectionFactory.destroy();
		redis.endpoint().command("ACL", "DELUSER", USER);
	}

	@Test
	void givenNoChannelPermissionWhenStartedThenTheSubscriptionIsRefusedOnceAndNotRetried() throws Exception {
		this.notifier.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> deniedSubscriptions(redis.endpoint()) >= 1);
		// The old notifier retried every 100ms, doubling up to 5s: three refusals by now.
		Thread.sleep(1_500);
		assertThat(deniedSubscriptions(redis.endpoint())).isEqualTo(1);
		assertThat(this.notifier.isRunning()).isTrue();
	}

	private static long deniedSubscriptions(RedisEndpoint endpoint) {
		long denied = 0;
		for (Object entry : (List<?>) endpoint.command("ACL", "LOG")) {
			List<?> fields = (List<?>) entry;
			int user = fields.indexOf("username");
			int reason = fields.indexOf("reason");
			int count = fields.indexOf("count");
			if (USER.equals(fields.get(user + 1)) && "channel".equals(fields.get(reason + 1))) {
				denied += (Long) fields.get(count + 1);
			}
		}
		return denied;
	}

}
