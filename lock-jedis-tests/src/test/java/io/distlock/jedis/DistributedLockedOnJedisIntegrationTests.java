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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockBackendException;
import io.distlock.LockEvent;
import io.distlock.LockListener;
import io.distlock.LockTemplate;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLocked} end to end in an application whose Redis client is Jedis:
 * exclusion, renewal of a lease shorter than the method, and Redis going down.
 */
@SpringBootTest(classes = JedisApplication.class)
@Import(DistributedLockedOnJedisIntegrationTests.LostLocks.class)
@DirtiesContext
class DistributedLockedOnJedisIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static final String LOCK_KEY = LockTemplate.DEFAULT_KEY_PREFIX + "ledger:42";

	@Autowired
	private Ledger ledger;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private LostLockRecorder lostLocks;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		JedisRedis.connectTo(redis, registry);
	}

	@BeforeEach
	void forgetLostLocks() {
		this.lostLocks.keys.clear();
	}

	@Test
	void givenClientTypeJedisThenTheLocksRunOnJedisAndNoReactiveTemplateIsConfigured() {
		assertThat(this.context.getBean(RedisConnectionFactory.class)).isInstanceOf(JedisConnectionFactory.class);
		// Reactive locking needs a ReactiveRedisConnectionFactory, which only Lettuce's
		// is.
		assertThat(this.context.getBeanNamesForType(ReactiveLockTemplate.class)).isEmpty();
	}

	@Test
	void givenALockedMethodWhenItRunsThenItHoldsItsLockInRedisAndReleasesIt() {
		AtomicReference<Object> holder = new AtomicReference<>();
		this.ledger.post(42, () -> holder.set(redis.endpoint().command("GET", LOCK_KEY)));
		assertThat(holder.get()).isInstanceOf(String.class);
		assertThat(redis.endpoint().command("EXISTS", LOCK_KEY)).isEqualTo(0L);
	}

	@Test
	void givenEightThreadsOnOneKeyWhenCallingTheLockedMethodThenNoTwoRunsOverlap() throws Exception {
		CriticalSections sections = CriticalSections.run(8, 25, (section) -> this.ledger.post(42, section));
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(8 * 25);
	}

	@Test
	void givenALeaseShorterThanTheMethodWhenItRunsThenRenewalKeepsTheLockItsOwn() {
		AtomicReference<Object> firstOwner = new AtomicReference<>();
		this.ledger.reconcile(42, () -> {
			firstOwner.set(redis.endpoint().command("GET", LOCK_KEY));
			// Over three leases of 900ms: without renewal the key would be gone.
			await().during(Duration.ofMillis(2700))
				.atMost(Duration.ofSeconds(5))
				.until(() -> firstOwner.get().equals(redis.endpoint().command("GET", LOCK_KEY)));
		});
		assertThat(firstOwner.get()).isInstanceOf(String.class);
		assertThat(this.lostLocks.keys).isEmpty();
		assertThat(redis.endpoint().command("EXISTS", LOCK_KEY)).isEqualTo(0L);
	}

	@Test
	void givenRedisDownWhenCallingALockedMethodThenABackendExceptionComesWithinTheTimeoutAndLockingWorksAfterRestart() {
		redis.server(0).stop();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> this.ledger.post(42, () -> {
		})).withMessageContaining("ledger:42");
		// spring.data.redis.timeout is 1s; the bound only tells a hang from an answer.
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
		redis.server(0).restart();
		AtomicReference<Object> holder = new AtomicReference<>();
		this.ledger.post(42, () -> holder.set(redis.endpoint().command("GET", LOCK_KEY)));
		assertThat(holder.get()).isInstanceOf(String.class);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class LostLocks {

		@Bean
		LostLockRecorder lostLockRecorder() {
			return new LostLockRecorder();
		}

	}

	static class LostLockRecorder implements LockListener {

		final List<String> keys = new CopyOnWriteArrayList<>();

		@Override
		public void onLost(LockEvent.Lost event) {
			this.keys.add(event.key());
		}

	}

}
