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

package io.distlock.faults;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.fencing.FencingTokenRejectedException;
import io.distlock.fencing.jdbc.JdbcFence;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holders that pause past their lease between reading and writing an account row, on a
 * real PostgreSQL and a real redis-server: the lost updates the pause causes without the
 * fencing kit, and none with {@link JdbcFence}.
 *
 * <p>
 * Each round, holder A takes the lock with a lease of {@link #TTL} that is not renewed
 * (its renewals pause with it), reads the balance and pauses; B takes the lock once A's
 * lease ran out, reads, adds one and commits; A wakes once B committed or is held back by
 * the database, adds one to what it read and commits. Every second round A pauses before
 * its first statement instead. Fenced, each transaction calls {@code check} first, so B's
 * check waits for A's row lock, or A's fails once B recorded a higher token. A lost
 * update is a committed increment missing from the final balance.
 * {@value #ROUNDS_PROPERTY} sets the number of rounds (20 by default; 200 for the figures
 * in docs/safety.md).
 */
class PausedHolderFencingIntegrationTests {

	static final String ROUNDS_PROPERTY = "distlock.faults.fencing-rounds";

	private static final int ROUNDS = Integer.getInteger(ROUNDS_PROPERTY, 20);

	private static final Duration TTL = Duration.ofMillis(300);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static EmbeddedPostgres postgres;

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	@Test
	void withTheFenceNoUpdateIsLostWhenHoldersPausePastTheirLease() throws Exception {
		Outcome outcome = run(true);
		System.out.println("Paused holders, fenced: " + outcome);
		assertThat(outcome.lostUpdates()).as("lost updates, fenced").isZero();
		assertThat(outcome.rejected()).as("stale holders refused by the fence").isPositive();
	}

	@Test
	void withoutTheFenceThePausesLoseUpdates() throws Exception {
		Outcome outcome = run(false);
		System.out.println("Paused holders, unfenced: " + outcome);
		assertThat(outcome.lostUpdates()).as("lost updates, unfenced").isPositive();
	}

	private Outcome run(boolean fenced) throws Exception {
		DataSource dataSource = postgres.getPostgresDatabase();
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("CREATE TABLE IF NOT EXISTS distlock_fence (resource VARCHAR(512) NOT NULL PRIMARY KEY, "
				+ "token BIGINT NOT NULL)");
		jdbc.execute("CREATE TABLE IF NOT EXISTS account (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL)");
		jdbc.update("DELETE FROM distlock_fence");
		jdbc.update("DELETE FROM account");
		jdbc.update("INSERT INTO account VALUES (1, 0)");
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		JdbcFence fence = new JdbcFence(dataSource);
		AtomicInteger committed = new AtomicInteger();
		AtomicInteger rejected = new AtomicInteger();
		try (LockStack stack = LockStack.on(redis.endpoint()).build()) {
			LockTemplate template = stack.template();
			for (int round = 0; round < ROUNDS; round++) {
				boolean pauseBeforeFirstStatement = round % 2 == 1;
				Round holders = new Round(template, transactions, jdbc, fenced ? fence : null, committed, rejected);
				holders.play(pauseBeforeFirstStatement);
			}
		}
		Long balance = jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Long.class);
		return new Outcome(ROUNDS, committed.get(), rejected.get(),
				committed.get() - ((balance != null) ? balance : 0));
	}

	/**
	 * One round: A, who pauses, and B, who takes the lock after A's lease ran out.
	 */
	private record Round(LockTemplate template, TransactionTemplate transactions, JdbcTemplate jdbc, JdbcFence fence,
			AtomicInteger committed, AtomicInteger rejected) {

		private static final LockRequest REQUEST = LockRequest.of("account:1", TTL, Duration.ZERO).withAutoRenew(false);

		void play(boolean pauseBeforeFirstStatement) throws Exception {
			LockHandle a = this.template.tryAcquire(REQUEST).orElseThrow();
			CountDownLatch aStarted = new CountDownLatch(1);
			AtomicBoolean bDone = new AtomicBoolean();
			CompletableFuture<Void> holderA = CompletableFuture.runAsync(() -> {
				try {
					increment(a.fencingToken(), aStarted, () -> {
						// Paused: the lease runs out and B gets in, until B committed or
						// the database holds B back.
						while (!bDone.get() && waitingForALock() == 0) {
							sleep(Duration.ofMillis(2));
						}
					}, pauseBeforeFirstStatement);
				}
				finally {
					a.close();
				}
			});
			assertThat(aStarted.await(10, TimeUnit.SECONDS)).isTrue();
			LockRequest waitForA = LockRequest.of("account:1", Duration.ofSeconds(10), Duration.ofSeconds(10))
				.withAutoRenew(false);
			try (LockHandle b = this.template.tryAcquire(waitForA).orElseThrow()) {
				increment(b.fencingToken(), new CountDownLatch(1), () -> {
				}, false);
			}
			finally {
				bDone.set(true);
			}
			holderA.get(30, TimeUnit.SECONDS);
		}

		private void increment(long token, CountDownLatch started, Runnable pause, boolean pauseFirst) {
			try {
				this.transactions.executeWithoutResult((tx) -> {
					if (pauseFirst) {
						started.countDown();
						pause.run();
					}
					if (this.fence != null) {
						this.fence.check("account:1", token);
					}
					long balance = this.jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Long.class);
					if (!pauseFirst) {
						started.countDown();
						pause.run();
					}
					this.jdbc.update("UPDATE account SET balance = ? WHERE id = 1", balance + 1);
				});
				this.committed.incrementAndGet();
			}
			catch (FencingTokenRejectedException ex) {
				this.rejected.incrementAndGet();
			}
		}

		private static void sleep(Duration duration) {
			try {
				Thread.sleep(duration.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		private int waitingForALock() {
			Integer waiting = this.jdbc.queryForObject("SELECT COUNT(*) FROM pg_locks WHERE NOT granted",
					Integer.class);
			return (waiting != null) ? waiting : 0;
		}

	}

	/**
	 * What a run of rounds gave.
	 */
	private record Outcome(int rounds, int committed, int rejected, long lostUpdates) {

		@Override
		public String toString() {
			return this.rounds + " rounds: " + this.committed + " increments committed, " + this.rejected
					+ " refused as stale, " + this.lostUpdates + " lost";
		}

	}

}
