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

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.fencing.FencingTokenRejectedException;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.util.Assert;

/**
 * Records fencing tokens in a fence table of the application's database, inside the
 * transaction that writes the protected data, and refuses a token lower than one already
 * recorded for the same resource: the database itself then rejects the writes of a holder
 * whose lease ran out while a later holder wrote.
 *
 * <pre class="code">
 * &#64;DistributedLocked(key = "'account:' + #id")
 * &#64;Transactional
 * public void credit(long id, long amount) {
 *     this.fence.check("account:" + id); // the token of this method's lock
 *     this.accounts.credit(id, amount);
 * }
 * </pre>
 *
 * <p>
 * An equal token is accepted: one holder may write in several transactions under one
 * lock. The check updates the resource's row, which stays locked by the transaction until
 * it ends, so a later holder's check waits for this holder's commit or rollback: writes
 * land in token order. Call it first in the transaction, before reading the protected
 * data, so that a later holder reads what an earlier one committed. What it guarantees
 * rests on the tokens (they increase for a key across holders, see the safety notes) and
 * on the writes running in the check's transaction, on the same {@link DataSource};
 * outside a transaction the check refuses to run, since in auto-commit it would hold
 * nothing back.
 *
 * <p>
 * The table (by default {@value #DEFAULT_TABLE_NAME}) has a {@code resource} key of up to
 * 512 characters and a {@code token}; Spring Boot creates it as its
 * {@code distlock.fencing.jdbc.initialize-schema} says. The statements suit PostgreSQL,
 * MySQL and MariaDB, H2, and other databases through a portable fallback.
 */
public class JdbcFence {

	/**
	 * The name of the fence table unless another is given.
	 */
	public static final String DEFAULT_TABLE_NAME = "distlock_fence";

	/**
	 * The longest resource name the table holds.
	 */
	public static final int MAX_RESOURCE_LENGTH = 512;

	private final DataSource dataSource;

	private final JdbcTemplate jdbc;

	private final String tableName;

	private volatile @Nullable FenceStatements statements;

	/**
	 * Create a fence on the table {@value #DEFAULT_TABLE_NAME}.
	 * @param dataSource the database of the protected data
	 */
	public JdbcFence(DataSource dataSource) {
		this(dataSource, DEFAULT_TABLE_NAME);
	}

	/**
	 * Create a fence on the given table.
	 * @param dataSource the database of the protected data
	 * @param tableName the fence table, optionally schema-qualified
	 */
	public JdbcFence(DataSource dataSource, String tableName) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		FenceStatements.checkIdentifier("tableName", tableName);
		this.dataSource = dataSource;
		this.jdbc = new JdbcTemplate(dataSource);
		this.tableName = tableName;
	}

	/**
	 * Return the fence table.
	 * @return the table name
	 */
	public String getTableName() {
		return this.tableName;
	}

	/**
	 * Record the token for the resource, in the current transaction.
	 * @param resource what the token protects, such as the lock key
	 * @param fencingToken the token of the lock held while writing it
	 * @throws FencingTokenRejectedException if a higher token was already recorded for
	 * the resource
	 * @throws IllegalStateException if no transaction on this fence's data source is
	 * active
	 */
	public void check(String resource, long fencingToken) {
		Assert.isTrue(resource != null && !resource.isEmpty() && resource.length() <= MAX_RESOURCE_LENGTH,
				() -> "'resource' must be 1 to " + MAX_RESOURCE_LENGTH + " characters long");
		requireTransaction(resource);
		FenceStatements statements = statements();
		statements.insertIfAbsent(this.jdbc, resource, fencingToken);
		if (this.jdbc.update(statements.raise(), fencingToken, resource, fencingToken) == 0) {
			Long recorded = this.jdbc.queryForObject(statements.select(), Long.class, resource);
			throw new FencingTokenRejectedException(resource, fencingToken, (recorded != null) ? recorded : 0);
		}
	}

	/**
	 * Record, for the resource, the token of the distlock lock of that key that this
	 * thread holds (through {@code @DistributedLocked}, {@code LockTemplate.execute} or
	 * an adapter): the resource is the lock's key, as {@link LockHandle#key()} gives it.
	 * @param resource the key of a lock this thread holds
	 * @throws FencingTokenRejectedException if a higher token was already recorded for
	 * the resource
	 * @throws IllegalStateException if this thread holds no distlock lock of that key
	 * (the token of a lock of another key would fence out the resource's real holder:
	 * pass the token with {@link #check(String, long)} instead), or no transaction on
	 * this fence's data source is active
	 */
	public void check(String resource) {
		LockHandle lock = LockContext.find(resource);
		if (lock == null) {
			int held = LockContext.held().size();
			throw new IllegalStateException("JdbcFence.check('" + resource + "') takes the fencing token of the "
					+ "distlock lock of key '" + resource + "' that this thread holds, and it holds "
					+ ((held == 0) ? "none"
							: "no lock of key '" + resource + "' (only " + held + " lock(s) of other keys, whose "
									+ "tokens would fence out its real holder)")
					+ ": call it inside the @DistributedLocked method or LockTemplate.execute of that key (on the "
					+ "thread that runs it), or pass the token with check(resource, fencingToken)");
		}
		check(resource, lock.fencingToken());
	}

	private void requireTransaction(String resource) {
		Connection connection = DataSourceUtils.getConnection(this.dataSource);
		try {
			// Transactional, not merely bound to the thread: with synchronization active,
			// a data source the transaction manager does not cover hands out a bound
			// connection in auto-commit.
			if (!DataSourceUtils.isConnectionTransactional(connection, this.dataSource) || connection.getAutoCommit()) {
				throw new IllegalStateException("JdbcFence.check('" + resource + "') ran outside a transaction on "
						+ "its DataSource: in auto-commit the recorded token would hold no later holder back. Call "
						+ "it inside @Transactional (or a TransactionTemplate) whose transaction manager covers the "
						+ "DataSource that the protected writes use");
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(
					"JdbcFence.check('" + resource + "') could not read the transaction " + "state of its connection",
					ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, this.dataSource);
		}
	}

	private FenceStatements statements() {
		FenceStatements statements = this.statements;
		if (statements == null) {
			statements = FenceStatements.forDatabase(this.dataSource, this.tableName);
			this.statements = statements;
		}
		return statements;
	}

}
