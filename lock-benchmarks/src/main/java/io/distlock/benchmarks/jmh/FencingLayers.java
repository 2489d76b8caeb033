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

package io.distlock.benchmarks.jmh;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.benchmarks.contenders.DistlockApplication;
import io.distlock.fencing.LockCommitGuard;
import io.distlock.fencing.jdbc.JdbcFence;
import io.distlock.fencing.redis.RedisFencedWrites;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The rows of {@link CostBreakdownBenchmark} that put one fencing capability on top of a
 * {@code LockTemplate} lock+unlock: the {@link LockCommitGuard} checking the held lock
 * before a transaction commits, one write through {@link RedisFencedWrites}, and a
 * {@link JdbcFence} check in a transaction on an in-memory H2 database.
 */
final class FencingLayers implements AutoCloseable {

	/**
	 * The variants of {@link CostBreakdownBenchmark} that this class runs.
	 */
	static final List<String> VARIANTS = List.of("template-commit-guard", "template-redis-fence",
			"template-jdbc-fence");

	private static final String DATA_KEY = "bench:breakdown:data";

	private static final Consumer<TransactionStatus> NOTHING = (status) -> {
	};

	private final String variant;

	private final LockTemplate template;

	private @Nullable TransactionTemplate transactions;

	private @Nullable RedisFencedWrites writes;

	private @Nullable SingleConnectionDataSource dataSource;

	private @Nullable JdbcFence fence;

	FencingLayers(String variant, DistlockApplication application) {
		this.variant = variant;
		this.template = application.lockTemplate();
		switch (variant) {
			case "template-commit-guard" -> {
				NoOpTransactionManager transactionManager = new NoOpTransactionManager();
				transactionManager.setTransactionExecutionListeners(List.of(new LockCommitGuard()));
				this.transactions = new TransactionTemplate(transactionManager);
			}
			case "template-redis-fence" -> this.writes = new RedisFencedWrites(application.connectionFactory());
			case "template-jdbc-fence" -> {
				SingleConnectionDataSource dataSource = new SingleConnectionDataSource(
						"jdbc:h2:mem:distlock-benchmark;DB_CLOSE_DELAY=-1", "sa", "", true);
				new ResourceDatabasePopulator(new ClassPathResource("io/distlock/fencing/jdbc/schema-h2.sql"))
					.execute(dataSource);
				this.dataSource = dataSource;
				this.fence = new JdbcFence(dataSource);
				this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
			}
			default -> throw new IllegalArgumentException("Unknown fencing variant '" + variant + "'");
		}
	}

	void lockUnlock(String key, Duration ttl, Duration wait) {
		switch (this.variant) {
			case "template-commit-guard" -> {
				// execute binds the lock to LockContext, where the guard finds it.
				TransactionTemplate transactions = required(this.transactions);
				this.template.execute(LockRequest.of(key, ttl, wait), () -> {
					transactions.executeWithoutResult(NOTHING);
					return null;
				});
			}
			case "template-redis-fence" -> {
				try (LockHandle lock = this.template.tryAcquire(key, ttl, wait).orElseThrow()) {
					required(this.writes).set(DATA_KEY, "value", lock.fencingToken());
				}
			}
			case "template-jdbc-fence" -> {
				try (LockHandle lock = this.template.tryAcquire(key, ttl, wait).orElseThrow()) {
					JdbcFence fence = required(this.fence);
					required(this.transactions).executeWithoutResult((status) -> fence.check(key, lock.fencingToken()));
				}
			}
			default -> throw new IllegalStateException("Unknown fencing variant '" + this.variant + "'");
		}
	}

	@Override
	public void close() {
		if (this.dataSource != null) {
			this.dataSource.destroy();
		}
	}

	private static <T> T required(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("Not set up");
		}
		return value;
	}

	/**
	 * A transaction manager with nothing to begin, commit or roll back, so that a
	 * transaction costs only the manager's bookkeeping and its listeners.
	 */
	@SuppressWarnings("serial")
	private static final class NoOpTransactionManager extends AbstractPlatformTransactionManager {

		// Any object: it only has to exist for the transaction to count as new.
		private static final Object TRANSACTION = new Object();

		@Override
		protected Object doGetTransaction() {
			return TRANSACTION;
		}

		@Override
		protected void doBegin(Object transaction, TransactionDefinition definition) {
		}

		@Override
		protected void doCommit(DefaultTransactionStatus status) {
		}

		@Override
		protected void doRollback(DefaultTransactionStatus status) {
		}

	}

}
