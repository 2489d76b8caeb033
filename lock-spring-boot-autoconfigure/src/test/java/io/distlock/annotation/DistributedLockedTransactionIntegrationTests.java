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

package io.distlock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.store.LockClient;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for {@link DistributedLocked} together with {@code @Transactional} on
 * a real transaction manager (JDBC on an in-memory H2 database) and a real redis-server:
 * by default the lock covers the whole transaction, commit included.
 */
@SpringBootTest(classes = DistributedLockedTransactionIntegrationTests.TestApplication.class)
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class DistributedLockedTransactionIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		registry.add("spring.datasource.url", () -> "jdbc:h2:mem:locks;DB_CLOSE_DELAY=-1");
	}

	@Autowired
	private AccountService accounts;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private LockClient lockClient;

	@Autowired
	private LockTemplate lockTemplate;

	@BeforeEach
	void createAccount() {
		this.jdbc.execute("CREATE TABLE IF NOT EXISTS account (id INT PRIMARY KEY, balance INT)");
		this.jdbc.update("DELETE FROM account");
		this.jdbc.update("INSERT INTO account VALUES (1, 0)");
	}

	@Test
	void lockIsTakenBeforeTheTransactionBeginsAndReleasedAfterItCommits() {
		this.accounts.deposit(1, 10);
		LockObservation observation = this.accounts.lastObservation();
		assertThat(observation.lockHeldWhenTransactionRan()).isTrue();
		assertThat(observation.lockHeldAfterCommit()).isTrue();
		assertThat(this.jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Integer.class)).isEqualTo(10);
	}

	@Test
	void nextHolderAlwaysSeesCommittedData() throws Exception {
		int threads = 8;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				futures.add(executor.submit(() -> this.accounts.depositSlowly(1, 1)));
			}
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Integer.class))
			.isEqualTo(threads);
	}

	@Test
	void callInsideAnAlreadyActiveTransactionIsWarnedAboutOncePerMethod(CapturedOutput output) {
		this.transactions.executeWithoutResult((status) -> this.accounts.deposit(1, 1));
		this.transactions.executeWithoutResult((status) -> this.accounts.deposit(1, 1));
		String warning = "was called inside a transaction that was already active";
		assertThat(output.getOut()).contains(warning);
		assertThat(output.getOut().indexOf(warning)).isEqualTo(output.getOut().lastIndexOf(warning));
	}

	@Test
	void callInsideALockOfTheSameKeyOnAnotherTemplateTakesItsOwnLockAndIsWarnedAbout(CapturedOutput output) {
		LockTemplate otherTemplate = new LockTemplate(new LockEngine(this.lockClient,
				new LockWaiter(Duration.ofMillis(500)), LockSettings.builder().keyPrefix("other:").build()));
		Boolean ownLockHeld = otherTemplate.execute(LockRequest.of("account:1", Duration.ofSeconds(10), Duration.ZERO),
				(outer) -> this.transactions.execute((status) -> this.accounts.withdrawSeeingTheLock(1, 1)));
		assertThat(ownLockHeld).as("'lock:account:1' held while the locked method ran").isTrue();
		assertThat(output.getOut()).contains("withdrawSeeingTheLock(int,int)' was called inside a transaction");
	}

	@Test
	void callReenteringTheApplicationsLockInsideATransactionIsNotWarnedAbout(CapturedOutput output) {
		this.lockTemplate.execute(LockRequest.of("account:1", Duration.ofSeconds(10), Duration.ZERO),
				(outer) -> this.transactions.execute((status) -> {
					this.accounts.refund(1, 1);
					return null;
				}));
		assertThat(output.getOut()).doesNotContain("refund(int,int)' was called inside a transaction");
	}

	@Test
	void callOutsideATransactionIsNotWarnedAbout(CapturedOutput output) {
		this.accounts.withdraw(1, 1);
		assertThat(output.getOut()).doesNotContain("was called inside a transaction");
	}

	record LockObservation(boolean lockHeldWhenTransactionRan, boolean lockHeldAfterCommit) {
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		AccountService accountService(JdbcTemplate jdbc, StringRedisTemplate redis) {
			return new AccountService(jdbc, redis);
		}

	}

	static class AccountService {

		private final JdbcTemplate jdbc;

		private final StringRedisTemplate redis;

		private volatile boolean heldInTransaction;

		private volatile boolean heldAfterCommit;

		AccountService(JdbcTemplate jdbc, StringRedisTemplate redis) {
			this.jdbc = jdbc;
			this.redis = redis;
		}

		@DistributedLocked(name = "account", key = "#id")
		@Transactional
		public void deposit(int id, int amount) {
			this.heldInTransaction = TransactionSynchronizationManager.isActualTransactionActive() && lockExists(id);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					AccountService.this.heldAfterCommit = lockExists(id);
				}

			});
			this.jdbc.update("UPDATE account SET balance = balance + ? WHERE id = ?", amount, id);
		}

		// Fields of a class-based proxy are not the target's: read state through methods.
		public LockObservation lastObservation() {
			return new LockObservation(this.heldInTransaction, this.heldAfterCommit);
		}

		@DistributedLocked(name = "account", key = "#id", waitTime = "30s")
		@Transactional
		public void depositSlowly(int id, int amount) {
			// A read-modify-write that loses updates unless the next holder reads after
			// the commit.
			Integer balance = this.jdbc.queryForObject("SELECT balance FROM account WHERE id = ?", Integer.class, id);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void beforeCommit(boolean readOnly) {
					DistributedLockedIntegrationTests.sleep(20);
				}

			});
			this.jdbc.update("UPDATE account SET balance = ? WHERE id = ?", balance + amount, id);
		}

		@DistributedLocked(name = "account", key = "#id")
		@Transactional
		public void withdraw(int id, int amount) {
			this.jdbc.update("UPDATE account SET balance = balance - ? WHERE id = ?", amount, id);
		}

		@DistributedLocked(name = "account", key = "#id")
		@Transactional
		public boolean withdrawSeeingTheLock(int id, int amount) {
			this.jdbc.update("UPDATE account SET balance = balance - ? WHERE id = ?", amount, id);
			return lockExists(id);
		}

		@DistributedLocked(name = "account", key = "#id")
		@Transactional
		public void refund(int id, int amount) {
			this.jdbc.update("UPDATE account SET balance = balance + ? WHERE id = ?", amount, id);
		}

		private boolean lockExists(int id) {
			return Boolean.TRUE.equals(this.redis.hasKey("lock:account:" + id));
		}

	}

}
