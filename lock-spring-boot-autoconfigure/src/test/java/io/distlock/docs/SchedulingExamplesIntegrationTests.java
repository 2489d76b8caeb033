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

package io.distlock.docs;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.distlock.LockTemplate;
import io.distlock.leader.LeaderElection;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the README's scheduled job and leader examples in a Spring Boot application on a
 * real redis-server.
 */
@SpringBootTest(classes = SchedulingExamplesIntegrationTests.TestApplication.class,
		properties = "spring.config.import=classpath:docs/leader-election.yml")
@DirtiesContext
class SchedulingExamplesIntegrationTests {

	@RegisterExtension
	// Not flushed between tests: the leadership lock lives as long as the application.
	static final RedisServerExtension redis = RedisServerExtension.singleNode().flushBeforeEach(false);

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		registry.add("spring.data.redis.timeout", () -> "2s");
	}

	@Autowired
	private InvoiceJob invoices;

	@Autowired
	private CatalogPublisher catalog;

	@Autowired
	private LeaderElection leaderElection;

	@Autowired
	private LockTemplate lockTemplate;

	@Autowired
	private StringRedisTemplate redisTemplate;

	@Test
	void givenTheJobRanThenItsLockStaysForItsMinimumHoldAndASecondRunIsSkipped() {
		String lock = "lock:" + InvoiceJob.class.getName() + ".sendInvoices";

		this.invoices.sendInvoices();
		this.invoices.sendInvoices();

		assertThat(this.invoices.runs()).isEqualTo(1);
		Long pttl = this.redisTemplate.getExpire(lock, TimeUnit.MILLISECONDS);
		assertThat(pttl).isBetween(Duration.ofMinutes(59).toMillis(), Duration.ofHours(1).toMillis());
		this.redisTemplate.delete(lock);
	}

	@Test
	void givenAnotherInstanceRunsTheJobThenThisOneSkipsItQuietly() throws Exception {
		String key = InvoiceJob.class.getName() + ".sendInvoices";
		CountDownLatch taken = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread other = new Thread(() -> this.lockTemplate.execute(key, Duration.ofSeconds(10), Duration.ZERO, () -> {
			taken.countDown();
			await().until(() -> done.getCount() == 0);
			return null;
		}));
		other.start();
		assertThat(taken.await(10, TimeUnit.SECONDS)).isTrue();
		int before = this.invoices.runs();

		this.invoices.sendInvoices();

		done.countDown();
		other.join(10_000);
		assertThat(this.invoices.runs()).isEqualTo(before);
	}

	@Test
	void givenTheOnlyInstanceThenItLeadsAndPublishesWithItsFencingToken() {
		await().atMost(Duration.ofSeconds(10)).until(this.leaderElection::isLeader);
		long token = this.leaderElection.getFencingToken().orElseThrow();

		assertThat(this.catalog.publish("spring")).isTrue();
		assertThat(this.catalog.published()).contains("granted " + token, "spring with token " + token);
		assertThat(this.redisTemplate.hasKey("lock:catalog")).isTrue();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		InvoiceJob invoiceJob() {
			return new InvoiceJob();
		}

		@Bean
		CatalogPublisher catalogPublisher(LeaderElection leaderElection) {
			return new CatalogPublisher(leaderElection);
		}

	}

}
