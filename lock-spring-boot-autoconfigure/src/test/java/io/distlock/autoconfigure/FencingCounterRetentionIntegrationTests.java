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

package io.distlock.autoconfigure;

import java.time.Duration;
import java.util.UUID;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@code distlock.fencing-counter-retention} decides how long a real Redis
 * keeps a key's fencing counter after an acquisition.
 */
class FencingCounterRetentionIntegrationTests {

	/**
	 * The fencing counter of lock {@code lock:k}: see RedisLockKeys.
	 */
	private static final String FENCE = "{lock:k}\u001ffence\u001flock:k";

	/**
	 * How much of the retention may have passed between the acquisition and the check.
	 */
	private static final Duration SLACK = Duration.ofSeconds(5);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port());

	@Test
	void fencingCounterIsKeptForTheConfiguredRetention() {
		Duration retention = Duration.ofMinutes(3);
		this.contextRunner.withPropertyValues("distlock.fencing-counter-retention=" + retention.toMinutes() + "m")
			.run((context) -> {
				assertThat(context.getBean(DistLockProperties.class).getFencingCounterRetention()).isEqualTo(retention);
				acquire(context.getBean(LockClient.class));
				assertThatFenceExpiresAfter(retention);
			});
	}

	@Test
	void fencingCounterIsKeptTenMinutesByDefault() {
		this.contextRunner.run((context) -> {
			acquire(context.getBean(LockClient.class));
			assertThatFenceExpiresAfter(Duration.ofMinutes(10));
		});
	}

	@Test
	void aRetentionBelowAMinuteFailsStartupNamingThePropertyAndTheValue() {
		this.contextRunner.withPropertyValues("distlock.fencing-counter-retention=1ms")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("distlock.fencing-counter-retention must be at least 60s, but was 1ms: a shorter one "
						+ "leaves fencing tokens to the clock alone (docs/safety.md)"));
	}

	@Test
	void aRetentionOfAMinuteIsAccepted() {
		this.contextRunner.withPropertyValues("distlock.fencing-counter-retention=1m")
			.run((context) -> assertThat(context.getBean(DistLockProperties.class).getFencingCounterRetention())
				.isEqualTo(Duration.ofMinutes(1)));
	}

	private static void acquire(LockClient client) {
		assertThat(client.tryAcquire("lock:k", UUID.randomUUID().toString(), Duration.ofSeconds(10)))
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	private static void assertThatFenceExpiresAfter(Duration retention) {
		assertThat((Long) redis.endpoint().command("PTTL", FENCE)).isBetween(retention.minus(SLACK).toMillis(),
				retention.toMillis());
	}

}
