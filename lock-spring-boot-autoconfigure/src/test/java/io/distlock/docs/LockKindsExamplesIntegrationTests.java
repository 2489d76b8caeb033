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

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.LockTemplate;
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

/**
 * Runs the README's examples of several keys, read/write locks and a concurrency limit in
 * a Spring Boot application on a real redis-server.
 */
@SpringBootTest(classes = LockKindsExamplesIntegrationTests.TestApplication.class)
@DirtiesContext
class LockKindsExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@Autowired
	private MoneyTransfers transfers;

	@Autowired
	private ReportStore reports;

	@Autowired
	private ExportService exports;

	@Autowired
	private StringRedisTemplate redisTemplate;

	@Test
	void givenTransfersBothWaysAtOnceThenNoMoneyIsLostOrMade() throws Exception {
		this.redisTemplate.opsForValue().set("balance:alice", "1000");
		this.redisTemplate.opsForValue().set("balance:bob", "1000");
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				boolean aliceToBob = i % 2 == 0;
				done.add(executor.submit(() -> {
					for (int j = 0; j < 20; j++) {
						if (aliceToBob) {
							this.transfers.transfer("alice", "bob", 3);
						}
						else {
							this.transfers.transfer("bob", "alice", 2);
						}
					}
					return null;
				}));
			}
			for (Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		// Without the locks, concurrent read-modify-writes lose updates.
		assertThat(this.redisTemplate.opsForValue().get("balance:alice")).isEqualTo(String.valueOf(1000 - 4 * 20));
		assertThat(this.redisTemplate.opsForValue().get("balance:bob")).isEqualTo(String.valueOf(1000 + 4 * 20));
		assertThat(this.redisTemplate.keys("lock:account:*")).isEmpty();
	}

	@Test
	void givenATransferInCodeThenItReturnsTheFencingTokenOfTheSourceAccount() {
		this.redisTemplate.opsForValue().set("balance:carol", "10");
		this.redisTemplate.opsForValue().set("balance:dave", "0");

		long first = this.transfers.transferInCode("carol", "dave", 4);
		long second = this.transfers.transferInCode("dave", "carol", 1);

		assertThat(second).isGreaterThan(first);
		assertThat(this.redisTemplate.opsForValue().get("balance:carol")).isEqualTo("7");
	}

	@Test
	void givenAnOrderThenEverySkuInItIsReservedUnderItsLock() {
		this.redisTemplate.opsForValue().set("stock:A", "5");
		this.redisTemplate.opsForValue().set("stock:B", "5");

		this.transfers.reserve(new MoneyTransfers.Order(List.of(new MoneyTransfers.Line("A", 2),
				new MoneyTransfers.Line("B", 1), new MoneyTransfers.Line("A", 1))));

		assertThat(this.redisTemplate.opsForValue().get("stock:A")).isEqualTo("2");
		assertThat(this.redisTemplate.opsForValue().get("stock:B")).isEqualTo("4");
	}

	@Test
	void givenReadersWhileTheReportIsRebuiltThenNoReaderSeesAHalfBuiltReport() throws Exception {
		this.reports.rebuild("monthly", 0);
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		List<String> torn = new ArrayList<>();
		try {
			List<Future<Integer>> readers = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				readers.add(executor.submit(() -> {
					int reads = 0;
					while (!stop.get()) {
						String report = this.reports.read("monthly");
						String[] parts = report.split(" / ");
						if (!parts[0].equals(parts[1])) {
							synchronized (torn) {
								torn.add(report);
							}
						}
						reads++;
					}
					return reads;
				}));
			}
			for (int version = 1; version <= 30; version++) {
				this.reports.rebuild("monthly", version);
			}
			stop.set(true);
			for (Future<Integer> reader : readers) {
				assertThat(reader.get(30, TimeUnit.SECONDS)).isPositive();
			}
		}
		finally {
			stop.set(true);
			executor.shutdownNow();
		}
		assertThat(torn).isEmpty();
		assertThat(this.reports.read("monthly")).isEqualTo("v30 / v30");
	}

	@Test
	void givenEightExportsAtOnceThenFiveRunAndThreeAreTurnedAway() throws Exception {
		CountDownLatch fiveInside = new CountDownLatch(5);
		CountDownLatch release = new CountDownLatch(1);
		SlowWriter.gate(fiveInside, release);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<Optional<String>>> results = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				String customer = "customer-" + i;
				results.add(executor.submit(() -> this.exports.export(customer)));
			}
			assertThat(fiveInside.await(30, TimeUnit.SECONDS)).isTrue();
			// Five exports hold the five permits: the next ones are skipped.
			for (int i = 5; i < 8; i++) {
				assertThat(this.exports.export("customer-" + i)).isEmpty();
			}
			release.countDown();
			for (Future<Optional<String>> result : results) {
				assertThat(result.get(30, TimeUnit.SECONDS)).isPresent();
			}
		}
		finally {
			release.countDown();
			SlowWriter.gate(null, null);
			executor.shutdownNow();
		}
		assertThat(this.exports.export("customer-after")).contains("export of customer-after");
	}

	/**
	 * An export writer that, when gated, waits inside the export until released.
	 */
	static class SlowWriter implements ExportService.ExportWriter {

		private static volatile CountDownLatch inside;

		private static volatile CountDownLatch release;

		static void gate(CountDownLatch inside, CountDownLatch release) {
			SlowWriter.inside = inside;
			SlowWriter.release = release;
		}

		@Override
		public String write(String customer) {
			CountDownLatch entered = inside;
			CountDownLatch gate = release;
			if (entered != null && gate != null) {
				entered.countDown();
				try {
					gate.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return "export of " + customer;
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		MoneyTransfers moneyTransfers(StringRedisTemplate redis, LockTemplate lockTemplate) {
			return new MoneyTransfers(redis, lockTemplate);
		}

		@Bean
		ReportStore reportStore(StringRedisTemplate redis) {
			return new ReportStore(redis);
		}

		@Bean
		ExportService exportService() {
			return new ExportService(new SlowWriter());
		}

	}

}
