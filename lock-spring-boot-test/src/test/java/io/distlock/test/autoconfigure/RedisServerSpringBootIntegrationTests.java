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

package io.distlock.test.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.distlock.annotation.DistributedLocked;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.LockClient;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServer;
import io.distlock.test.assertion.LockAssert;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's {@code @SpringBootTest} on a real redis-server started by
 * {@link AutoConfigureRedisServer @AutoConfigureRedisServer}.
 */
@SpringBootTest(classes = RedisServerSpringBootIntegrationTests.TestApplication.class)
@AutoConfigureRedisServer
class RedisServerSpringBootIntegrationTests {

	@Autowired
	private Counter counter;

	@Autowired
	private LockClient lockClient;

	@Autowired
	private RedisEndpoint redis;

	@Test
	void locksAreHeldInTheStartedRedisServer() {
		assertThat(this.lockClient).isInstanceOf(RedisLockClient.class);
		assertThat(this.redis).isInstanceOf(RedisServer.class);
		this.counter.increment();
		assertThat(this.counter.lockKeyExisted()).as("lock:counter in Redis while the method ran").isTrue();
		assertThat(this.redis.command("EXISTS", "lock:counter")).as("after the method").isEqualTo(0L);
	}

	@Test
	void lockedMethodCalledFromManyThreadsNeverOverlaps() throws Exception {
		int before = this.counter.value();
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				calls.add(threads.submit(() -> {
					for (int j = 0; j < 10; j++) {
						this.counter.increment();
					}
				}));
			}
			for (Future<?> call : calls) {
				call.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(this.counter.overlaps()).isZero();
		assertThat(this.counter.value() - before).isEqualTo(4 * 10);
	}

	@Test
	void lockedMethodRunsUnderItsLock() {
		LockAssert.assertThatLock("counter").isHeldDuring(this.counter::increment);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Counter counter(RedisEndpoint redis) {
			return new Counter(redis);
		}

	}

	static class Counter {

		final AtomicInteger overlaps = new AtomicInteger();

		private final AtomicInteger inside = new AtomicInteger();

		private final RedisEndpoint redis;

		volatile boolean lockKeyExisted;

		// Not atomic on purpose: only the lock keeps increments from getting lost.
		volatile int value;

		Counter(RedisEndpoint redis) {
			this.redis = redis;
		}

		// Read through methods: the test holds the proxy, whose own fields are unused.
		public int overlaps() {
			return this.overlaps.get();
		}

		public boolean lockKeyExisted() {
			return this.lockKeyExisted;
		}

		public int value() {
			return this.value;
		}

		@DistributedLocked(key = "counter", waitTime = "30s")
		public void increment() {
			if (this.inside.incrementAndGet() > 1) {
				this.overlaps.incrementAndGet();
			}
			this.lockKeyExisted = Long.valueOf(1).equals(this.redis.command("EXISTS", "lock:counter"));
			int read = this.value;
			Thread.yield();
			this.value = read + 1;
			this.inside.decrementAndGet();
		}

	}

}
