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

import java.io.IOException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.test.RedisServerExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Runs the code the README shows, in a Spring Boot application on a real redis-server and
 * an in-memory database.
 */
@SpringBootTest(classes = ReadmeExamplesIntegrationTests.TestApplication.class)
@DirtiesContext
class ReadmeExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		registry.add("spring.datasource.url", () -> "jdbc:h2:mem:readme;DB_CLOSE_DELAY=-1");
	}

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private PaymentService payments;

	@Autowired
	private DocumentEditor editor;

	@Autowired
	private LockTemplate lockTemplate;

	@Autowired
	private ReportGenerator reports;

	@Autowired
	private GatedExecutor reportExecutor;

	@Autowired
	private StringRedisTemplate redisTemplate;

	@Autowired
	private StockReservations stock;

	@BeforeEach
	void createDocuments() {
		this.jdbc.execute("CREATE TABLE IF NOT EXISTS document (id BIGINT PRIMARY KEY, body VARCHAR(100), "
				+ "fencing_token BIGINT)");
		this.jdbc.update("DELETE FROM document");
		this.jdbc.update("INSERT INTO document VALUES (42, 'empty', 0)");
	}

	@Test
	void concurrentReservationsNeverSellMoreThanTheStock() {
		this.redisTemplate.opsForValue().set("stock:sku-7", "10");
		List<Boolean> reserved = Flux.range(0, 25)
			.flatMap((i) -> this.stock.reserve("sku-7", 1).subscribeOn(Schedulers.parallel()))
			.collectList()
			.block(Duration.ofSeconds(30));
		assertThat(reserved).hasSize(25).filteredOn(Boolean::booleanValue).hasSize(10);
		assertThat(this.redisTemplate.opsForValue().get("stock:sku-7")).isEqualTo("0");
		assertThat(this.redisTemplate.hasKey("lock:stock:sku-7")).isFalse();
	}

	@Test
	void restockRunsUnderOneLockWithOneFencingToken() {
		List<String> levels = this.stock.restock(List.of("sku-8", "sku-9"), 5)
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(levels).hasSize(2);
		assertThat(levels.get(0)).startsWith("sku-8=5 (token ");
		assertThat(levels.get(1)).startsWith("sku-9=5 (token ");
		assertThat(levels.get(0).substring(levels.get(0).indexOf("token")))
			.isEqualTo(levels.get(1).substring(levels.get(1).indexOf("token")));
		assertThat(this.redisTemplate.hasKey("lock:restock")).isFalse();
	}

	@Test
	void paymentIsWrittenWithItsLocksFencingToken() {
		this.payments.pay(42);
		assertThat(this.jdbc.queryForObject("SELECT body FROM document WHERE id = 42", String.class)).isEqualTo("paid");
		assertThat(this.jdbc.queryForObject("SELECT fencing_token FROM document WHERE id = 42", Long.class))
			.isPositive();
	}

	@Test
	void editorWritesUnderTheLockAndRendersUnderIt() {
		assertThat(this.editor.edit(42, "edited")).isTrue();
		assertThat(this.editor.render(42)).isEqualTo("rendered 42");
	}

	@Test
	void savedDocumentIsWrittenWithTheCallbacksFencingTokenAndItsCheckedExceptionReachesTheCaller() throws Exception {
		assertThat(this.editor.save(42, "saved")).isTrue();
		assertThat(this.jdbc.queryForObject("SELECT body FROM document WHERE id = 42", String.class))
			.isEqualTo("saved");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.editor.save(42, " "))
			.withMessageContaining("empty document");
		assertThat(this.redisTemplate.hasKey("lock:document:42")).as("released after the exception").isFalse();
	}

	@Test
	void lostLockInterruptsItsHolder() throws Exception {
		CompletableFuture<Boolean> interrupted = CompletableFuture.supplyAsync(() -> {
			try (LockHandle handle = this.lockTemplate.tryAcquire("job", Duration.ofMillis(500), Duration.ZERO)
				.orElseThrow()) {
				this.redisTemplate.delete("lock:job");
				Thread.sleep(10_000);
				return false;
			}
			catch (InterruptedException ex) {
				return true;
			}
		});
		assertThat(interrupted.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void reportIsGeneratedUnderTheLockAndTheLockIsReleasedWhenItsFutureCompletes() throws Exception {
		assertThat(this.reports.generate("2026-11").get(10, TimeUnit.SECONDS)).startsWith("report 2026-11 (token ");
		assertThat(this.redisTemplate.hasKey("lock:report:2026-11")).as("released").isFalse();
		assertThat(this.reports.export("2026-11").get(10, TimeUnit.SECONDS)).startsWith("report 2026-11 (token ");
		assertThat(this.redisTemplate.hasKey("lock:export:2026-11")).as("released").isFalse();
	}

	@Test
	void secondReportOfTheSameMonthWaitsForTheFirstsFuture() throws Exception {
		CompletableFuture<Void> gate = new CompletableFuture<>();
		this.reportExecutor.gate = gate;
		CompletableFuture<String> first = this.reports.generate("2026-12");
		assertThat(this.redisTemplate.hasKey("lock:report:2026-12")).as("held while the work waits").isTrue();
		this.reportExecutor.gate = null;
		CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> this.reports.generate("2026-12").join());
		gate.complete(null);
		long firstToken = token(first.get(10, TimeUnit.SECONDS));
		assertThat(token(second.get(10, TimeUnit.SECONDS))).isGreaterThan(firstToken);
		assertThat(this.redisTemplate.hasKey("lock:report:2026-12")).as("released").isFalse();
	}

	private static long token(String report) {
		return Long.parseLong(report.substring(report.indexOf("(token ") + 7, report.length() - 1));
	}

	/**
	 * Runs the reports on threads of its own, holding back the work of one while a test
	 * sets a gate.
	 */
	static class GatedExecutor implements Executor {

		volatile @Nullable CompletableFuture<Void> gate;

		@Override
		public void execute(Runnable command) {
			CompletableFuture<Void> gate = this.gate;
			CompletableFuture.runAsync(() -> {
				if (gate != null) {
					gate.join();
				}
				command.run();
			});
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		GatedExecutor reportExecutor() {
			return new GatedExecutor();
		}

		@Bean
		ReportGenerator reportGenerator(LockTemplate lockTemplate, GatedExecutor reportExecutor) {
			return new ReportGenerator(lockTemplate, reportExecutor);
		}

		@Bean
		FencedDocumentStore store(JdbcTemplate jdbc) {
			return new FencedDocumentStore(jdbc);
		}

		@Bean
		PaymentService paymentService(FencedDocumentStore store) {
			return new PaymentService(store);
		}

		@Bean
		DocumentEditor documentEditor(LockTemplate lockTemplate, FencedDocumentStore store) {
			return new DocumentEditor(lockTemplate, store);
		}

		@Bean
		StockReservations stockReservations(ReactiveLockTemplate lockTemplate, ReactiveStringRedisTemplate redis) {
			return new StockReservations(lockTemplate, redis);
		}

		@Bean
		LockLossHandler lockLossHandler() {
			return new LockLossHandler();
		}

	}

}
