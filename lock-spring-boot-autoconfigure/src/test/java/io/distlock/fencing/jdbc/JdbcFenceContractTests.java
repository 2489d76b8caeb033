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

package io.distlock.fencing.jdbc;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.fencing.FencingTokenRejectedException;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * What {@link JdbcFence} and {@link FencedRowUpdate} guarantee, run on each real database
 * by a subclass: the fence table and an {@code account} table with a token column,
 * written in transactions as locked code would, under locks taken on a real Redis.
 */
abstract class JdbcFenceContractTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private LockTemplate locks;

	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private TransactionTemplate transactions;

	private JdbcFence fence;

	/**
	 * Return the database, its fence and account tables empty.
	 */
	protected abstract DataSource dataSource();

	/**
	 * Return another data source of the same database, as a second connection pool would
	 * be.
	 */
	protected abstract DataSource anotherDataSourceOfTheSameDatabase();

	/**
	 * Return how many sessions of the database wait for a lock another holds.
	 */
	protected abstract int sessionsWaitingForALock(JdbcTemplate jdbc);

	@BeforeEach
	void setUp() {
		this.dataSource = dataSource();
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.jdbc.execute("CREATE TABLE IF NOT EXISTS distlock_fence (resource VARCHAR(512) NOT NULL PRIMARY KEY, "
				+ "token BIGINT NOT NULL)");
		this.jdbc.execute("CREATE TABLE IF NOT EXISTS account (id BIGINT NOT NULL PRIMARY KEY, "
				+ "balance BIGINT NOT NULL, fence_token BIGINT)");
		this.jdbc.update("DELETE FROM distlock_fence");
		this.jdbc.update("DELETE FROM account");
		this.jdbc.update("INSERT INTO account (id, balance) VALUES (1, 0)");
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		this.fence = new JdbcFence(this.dataSource);
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.locks = new LockTemplate(new RedisLockClient(this.connectionFactory));
	}

	@AfterEach
	void disconnect() {
		this.connectionFactory.destroy();
	}

	@Test
	void aStaleHoldersCheckFailsAfterALaterHolderCommittedAndItsWritesRollBack() {
		write(20, 100);

		assertThatExceptionOfType(FencingTokenRejectedException.class).isThrownBy(() -> write(10, 999))
			.satisfies((ex) -> {
				assertThat(ex.getResource()).isEqualTo("account:1");
				assertThat(ex.getFencingToken()).isEqualTo(10);
				assertThat(ex.getRecordedToken()).isEqualTo(20);
			})
			.withMessageContaining("is stale");
		assertThat(balance()).isEqualTo(100);
	}

	@Test
	void anEqualTokenPassesForAHolderWritingInSeveralTransactions() {
		write(7, 1);
		write(7, 2);

		assertThat(balance()).isEqualTo(2);
		assertThat(
				this.jdbc.queryForObject("SELECT token FROM distlock_fence WHERE resource = 'account:1'", Long.class))
			.isEqualTo(7);
	}

	@Test
	void aHigherTokenPassesAndIsRecorded() {
		write(7, 1);
		write(8, 2);

		assertThat(
				this.jdbc.queryForObject("SELECT token FROM distlock_fence WHERE resource = 'account:1'", Long.class))
			.isEqualTo(8);
	}

	@Test
	void overlappingHoldersLandInTokenOrderTheLaterWaitingForTheEarliersCommit() throws Exception {
		CopyOnWriteArrayList<String> events = new CopyOnWriteArrayList<>();
		CountDownLatch earlierChecked = new CountDownLatch(1);
		CountDownLatch earlierMayCommit = new CountDownLatch(1);
		CompletableFuture<Void> earlier = CompletableFuture
			.runAsync(() -> this.transactions.executeWithoutResult((tx) -> {
				this.fence.check("account:1", 1);
				earlierChecked.countDown();
				awaitLatch(earlierMayCommit);
				this.jdbc.update("UPDATE account SET balance = 1 WHERE id = 1");
				events.add("earlier commits");
			}));
		assertThat(earlierChecked.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> later = CompletableFuture
			.runAsync(() -> this.transactions.executeWithoutResult((tx) -> {
				this.fence.check("account:1", 2);
				events.add("later checked");
				this.jdbc.update("UPDATE account SET balance = 2 WHERE id = 1");
			}));

		// The later check waits on the row the earlier one locked, until it commits.
		await().atMost(Duration.ofSeconds(10)).until(() -> sessionsWaitingForALock(this.jdbc) > 0);
		assertThat(events).isEmpty();
		earlierMayCommit.countDown();
		earlier.get(10, TimeUnit.SECONDS);
		later.get(10, TimeUnit.SECONDS);

		assertThat(events).containsExactly("earlier commits", "later checked");
		assertThat(balance()).isEqualTo(2);
	}

	@Test
	void aCheckOutsideATransactionFailsNamingTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> this.fence.check("account:1", 1))
			.withMessageContaining("outside a transaction")
			.withMessageContaining("@Transactional");
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM distlock_fence", Integer.class)).isZero();
	}

	@Test
	void aCheckInATransactionOfAnotherDataSourceFailsInsteadOfRunningInAutoCommit() {
		JdbcFence elsewhere = new JdbcFence(anotherDataSourceOfTheSameDatabase());

		assertThatIllegalStateException()
			.isThrownBy(() -> this.transactions.executeWithoutResult((tx) -> elsewhere.check("account:1", 1)))
			.withMessageContaining("outside a transaction");
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM distlock_fence", Integer.class)).isZero();
	}

	@Test
	void aCheckOfTheHeldLocksTokenFailsWhenTheThreadHoldsNone() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.transactions.executeWithoutResult((tx) -> this.fence.check("account:1")))
			.withMessageContaining("holds none");
	}

	@Test
	void aCheckOfTheHeldLocksTokenRefusesAResourceThatNoHeldLockHasNamingIt() {
		this.locks.execute("account:2", TTL, Duration.ZERO, () -> {
			assertThatIllegalStateException()
				.isThrownBy(() -> this.transactions.executeWithoutResult((tx) -> this.fence.check("account:1")))
				.withMessageContaining("check('account:1')")
				.withMessageContaining("no lock of key 'account:1'")
				.withMessageContaining("check(resource, fencingToken)");
			return null;
		});

		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM distlock_fence", Integer.class)).isZero();
	}

	@Test
	void aHolderOfAnotherKeyLeavesTheResourceToItsRealHolder() {
		try (LockHandle realHolder = this.locks.tryAcquire("account:1", TTL, Duration.ZERO).orElseThrow()) {
			AtomicLong otherToken = new AtomicLong();
			CompletableFuture<Void> other = CompletableFuture
				.runAsync(() -> this.locks.execute("account:2", TTL, Duration.ZERO, () -> {
					otherToken.set(LockContext.require().fencingToken());
					this.transactions.executeWithoutResult((tx) -> this.fence.check("account:1"));
					return null;
				}));

			assertThat(other).failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingRootCause()
				.isInstanceOf(IllegalStateException.class);
			// Granted later, from the Redis clock: a token that would fence the real
			// holder out.
			assertThat(otherToken.get()).isGreaterThan(realHolder.fencingToken());
			this.transactions.executeWithoutResult((tx) -> this.fence.check("account:1", realHolder.fencingToken()));
			assertThat(this.jdbc.queryForObject("SELECT token FROM distlock_fence WHERE resource = 'account:1'",
					Long.class))
				.isEqualTo(realHolder.fencingToken());
		}
	}

	@Test
	void aCheckOfTheHeldLocksTokenTakesTheLockOfTheResourceNotTheInnermost() {
		long outer = this.locks.execute("account:1", TTL, Duration.ZERO,
				() -> this.locks.execute("account:2", TTL, Duration.ZERO, () -> {
					this.transactions.executeWithoutResult((tx) -> this.fence.check("account:1"));
					return this.locks.findBoundLock("account:1").fencingToken();
				}));

		assertThat(
				this.jdbc.queryForObject("SELECT token FROM distlock_fence WHERE resource = 'account:1'", Long.class))
			.isEqualTo(outer);
	}

	@Test
	void aFencedRowUpdateWritesTheRowAndItsTokenAndRefusesALowerToken() {
		FencedRowUpdate rows = new FencedRowUpdate(this.dataSource);

		rows.update("account", "id", 1L, Map.of("balance", 50), 30);
		rows.update("account", "id", 1L, Map.of("balance", 60), 30);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> rows.update("account", "id", 1L, Map.of("balance", 999), 29))
			.satisfies((ex) -> assertThat(ex.getRecordedToken()).isEqualTo(30));
		assertThat(balance()).isEqualTo(60);
		assertThat(this.jdbc.queryForObject("SELECT fence_token FROM account WHERE id = 1", Long.class)).isEqualTo(30);
	}

	@Test
	void aFencedRowUpdateOfAMissingRowSaysSo() {
		assertThatExceptionOfType(EmptyResultDataAccessException.class).isThrownBy(
				() -> new FencedRowUpdate(this.dataSource).update("account", "id", 2L, Map.of("balance", 1), 1));
	}

	@Test
	void namesThatAreNotPlainIdentifiersAreRefused() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new JdbcFence(this.dataSource, "fence; DROP TABLE account"))
			.withMessageContaining("tableName");
	}

	private void write(long token, long balance) {
		this.transactions.executeWithoutResult((tx) -> {
			this.jdbc.update("UPDATE account SET balance = ? WHERE id = 1", balance);
			this.fence.check("account:1", token);
		});
	}

	private long balance() {
		return this.jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Long.class);
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
