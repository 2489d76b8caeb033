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

import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockTemplate;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisServerExtension;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.SpringVersion;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a Spring Boot 3.5 application with the Boot 3 starter locks a
 * {@code @DistributedLocked} method end to end against a real redis-server.
 */
@SpringBootTest(classes = Boot3Application.class)
@DirtiesContext
class DistributedLockedOnBoot3IntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	/**
	 * The Redis key of ledger 42's lock: the annotation's key under the default prefix.
	 */
	private static final String LOCK_KEY = LockTemplate.DEFAULT_KEY_PREFIX + "ledger:42";

	@Autowired
	private Ledger ledger;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		Boot3Redis.connectTo(redis, registry);
	}

	@Test
	void runsOnSpringBoot35WithSpringFramework62AndLettuce6() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(SpringVersion.getVersion()).startsWith("6.2.");
		assertThat(RedisConnection.class.getPackage().getImplementationVersion()).startsWith("3.5.");
		assertThat(RedisClient.class.getPackage().getImplementationVersion()).startsWith("6.");
	}

	@Test
	void lockedMethodRunsHoldingItsLockInRedis() {
		AtomicReference<Object> holder = new AtomicReference<>();
		this.ledger.post(42, () -> holder.set(redis.endpoint().command("GET", LOCK_KEY)));
		assertThat(holder.get()).isInstanceOf(String.class);
		assertThat(redis.endpoint().command("EXISTS", LOCK_KEY)).isEqualTo(0L);
	}

	@Test
	void lockedMethodRunsOnOneThreadAtATime() throws Exception {
		CriticalSections sections = CriticalSections.run(8, 25, (section) -> this.ledger.post(42, section));
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(8 * 25);
	}

}
