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

import java.sql.DatabaseMetaData;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.util.Assert;

/**
 * The SQL of {@link JdbcFence} for one database: a row for the resource if it has none
 * (without failing the transaction when another one inserts it at the same time), the
 * conditional raise of its token, which locks the row, and the read of the recorded
 * token.
 */
abstract class FenceStatements {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private final String raise;

	private final String select;

	FenceStatements(String table) {
		this.raise = "UPDATE " + table + " SET token = ? WHERE resource = ? AND token <= ?";
		this.select = "SELECT token FROM " + table + " WHERE resource = ?";
	}

	static FenceStatements forDatabase(DataSource dataSource, String table) {
		String product;
		try {
			product = JdbcUtils.commonDatabaseName(
					JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName));
		}
		catch (MetaDataAccessException ex) {
			product = null;
		}
		if ("PostgreSQL".equals(product)) {
			return new Statement(table,
					"INSERT INTO " + table + " (resource, token) VALUES (?, ?) ON CONFLICT (resource) DO NOTHING");
		}
		if ("MySQL".equals(product) || "MariaDB".equals(product)) {
			return new Statement(table, "INSERT IGNORE INTO " + table + " (resource, token) VALUES (?, ?)");
		}
		// H2 among them: its MERGE fails on a row another transaction inserted and has
		// not
		// committed yet, where a failed INSERT leaves the transaction usable.
		return new Portable(table);
	}

	/**
	 * Fail unless the name is a plain SQL identifier, optionally qualified: it is written
	 * into the statements.
	 */
	static void checkIdentifier(String what, @Nullable String name) {
		Assert.isTrue(name != null && IDENTIFIER.matcher(name).matches(), () -> "'" + what + "' must be a name of "
				+ "letters, digits and underscores, optionally qualified, but was '" + name + "'");
	}

	/**
	 * Make sure the resource has a row, with the given token if it is new.
	 */
	abstract void insertIfAbsent(JdbcTemplate jdbc, String resource, long token);

	final String raise() {
		return this.raise;
	}

	final String select() {
		return this.select;
	}

	/**
	 * One statement that inserts the row unless it exists.
	 */
	private static final class Statement extends FenceStatements {

		private final String insertIfAbsent;

		Statement(String table, String insertIfAbsent) {
			super(table);
			this.insertIfAbsent = insertIfAbsent;
		}

		@Override
		void insertIfAbsent(JdbcTemplate jdbc, String resource, long token) {
			jdbc.update(this.insertIfAbsent, resource, token);
		}

	}

	/**
	 * Standard SQL: insert when no row is seen, and take a concurrent insert's duplicate
	 * key as the row being there (for databases, such as H2, that keep the transaction
	 * usable after a failed statement).
	 */
	private static final class Portable extends FenceStatements {

		private final String count;

		private final String insert;

		Portable(String table) {
			super(table);
			this.count = "SELECT COUNT(*) FROM " + table + " WHERE resource = ?";
			this.insert = "INSERT INTO " + table + " (resource, token) VALUES (?, ?)";
		}

		@Override
		void insertIfAbsent(JdbcTemplate jdbc, String resource, long token) {
			Integer rows = jdbc.queryForObject(this.count, Integer.class, resource);
			if (rows == null || rows == 0) {
				try {
					jdbc.update(this.insert, resource, token);
				}
				catch (DuplicateKeyException ex) {
					// Inserted by a concurrent check since: the row is there.
				}
			}
		}

	}

}
