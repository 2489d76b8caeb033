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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.distlock.LockAcquisitionException;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.store.LockClient;
import io.distlock.test.assertion.LockAssert;
import io.distlock.test.memory.InMemoryLockClient;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A user's {@code @SpringBootTest} on the in-memory store: {@code @DistributedLocked}
 * methods exclude each other with no Redis running.
 */
@SpringBootTest(classes = InMemoryLocksSpringBootTests.TestApplication.class)
@AutoConfigureInMemoryLocks
class InMemoryLocksSpringBootTests {

	@Autowired
	private Counter counter;

	@Autowired
	private LockClient lockClient;

	@Autowired
	private LockTemplate lockTemplate;

	@Test
	void locksAreHeldInTheInMemoryStore() {
		assertThat(this.lockClient).isInstanceOf(InMemoryLockClient.class);
	}

	@Test
	void lockedMethodCalledFromManyThreadsNeverOverlaps() throws Exception {
		int before = this.counter.value();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				calls.add(threads.submit(() -> {
					for (int j = 0; j < 25; j++) {
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
		assertThat(this.counter.value() - before).isEqualTo(8 * 25);
	}

	@Test
	void lockedMethodIsRefusedWhileAnotherCallerHoldsItsLock() {
		this.lockTemplate.execute(LockRequest.of("counter", Duration.ofSeconds(10), Duration.ZERO), () -> {
			Thread other = new Thread(() -> assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(this.counter::incrementWithoutWaiting));
			AtomicInteger failures = new AtomicInteger();
			other.setUncaughtExceptionHandler((thread, ex) -> failures.incrementAndGet());
			other.start();
			try {
				other.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			assertThat(failures).hasValue(0);
			return null;
		});
	}

	@Test
	void lockedMethodRunsUnderItsLock() {
		LockAssert.assertThatLock("counter").isHeldDuring(this.counter::increment);
		LockAssert.assertNotLocked("counter");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Counter counter() {
			return new Counter();
		}

	}

	static class Counter {

		final AtomicInteger overlaps = new AtomicInteger();

		private final AtomicInteger inside = new AtomicInteger();

		// Not atomic on purpose: only the lock keeps increments from getting lost.
		int value;

		// Read through methods: the test holds the proxy, whose own fields are unused.
		public int overlaps() {
			return this.overlaps.get();
		}

		public int value() {
			return this.value;
		}

		@DistributedLocked(key = "counter", waitTime = "30s")
		public void increment() {
			if (this.inside.incrementAndGet() > 1) {
				this.overlaps.incrementAndGet();
			}
			int read = this.value;
			Thread.yield();
			this.value = read + 1;
			this.inside.decrementAndGet();
		}

		@DistributedLocked(key = "counter", waitTime = "0s")
		public void incrementWithoutWaiting() {
			increment();
		}

	}

}
