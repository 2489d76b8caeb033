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

package io.distlock.shutdown;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.distlock.HeldLock;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests of what happens to held locks when the application context closes, on
 * a real redis-server: locked work may finish within the grace period, then what is still
 * held is released and nothing renews any more.
 */
class HeldLocksShutdownIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Test
	void lockedWorkFinishesDuringShutdownAndItsLockIsReleased() throws Exception {
		// Given: a locked method running when shutdown begins.
		ConfigurableApplicationContext context = start("30s");
		Jobs jobs = context.getBean(Jobs.class);
		CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> jobs.run("nightly", 1500));
		assertThat(Jobs.started.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(context.getBean(LockTemplate.class).getEngine().getHeldLocks()).extracting(HeldLock::name)
			.containsExactly("jobs");

		// When
		long closing = System.nanoTime();
		context.close();
		long closedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);

		// Then: the close waited for the work (1.5s from its start), which released its
		// lock itself.
		assertThat(closedAfterMillis).isGreaterThanOrEqualTo(1000);
		assertThat(running.get(5, TimeUnit.SECONDS)).isEqualTo("done nightly");
		assertThat(redis.endpoint().command("EXISTS", "lock:jobs:nightly")).isEqualTo(0L);
	}

	@Test
	void lockStillHeldAfterTheGracePeriodIsReleasedAndNoLongerRenewed() throws Exception {
		// Given: a phase timeout of 6s leaves 1s for locked work to finish; this work
		// takes 20s, on a lease of 1s that only renewal keeps alive.
		ConfigurableApplicationContext context = start("6s");
		Jobs jobs = context.getBean(Jobs.class);
		CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> jobs.run("long", 20_000));
		assertThat(Jobs.started.await(10, TimeUnit.SECONDS)).isTrue();

		// When
		long closing = System.nanoTime();
		context.close();
		long closedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);

		// Then: released after the grace period, long before the work ends.
		assertThat(closedAfterMillis).isLessThan(15_000);
		assertThat(redis.endpoint().command("EXISTS", "lock:jobs:long")).isEqualTo(0L);
		assertThat(running).isNotDone();
		// Nothing renews after the close: the key stays gone.
		await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
		assertThat(redis.endpoint().command("EXISTS", "lock:jobs:long")).isEqualTo(0L);
		Jobs.finish.countDown();
	}

	private static ConfigurableApplicationContext start(String phaseTimeout) {
		Jobs.reset();
		return new SpringApplicationBuilder(TestApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(),
					"spring.lifecycle.timeout-per-shutdown-phase=" + phaseTimeout)
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

	}

	static class Jobs {

		// Static: the test reads them through the proxy, which has fields of its own.
		static volatile CountDownLatch started = new CountDownLatch(1);

		static volatile CountDownLatch finish = new CountDownLatch(1);

		static void reset() {
			started = new CountDownLatch(1);
			finish = new CountDownLatch(1);
		}

		@DistributedLocked(name = "jobs", key = "#name", ttl = "1s")
		public String run(String name, long millis) {
			started.countDown();
			try {
				finish.await(millis, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return "done " + name;
		}

	}

}
