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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.distlock.fencing.FencingTokenRejectedException;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.Assert;

/**
 * Row-level fencing, for rows that carry their own token column: updates a row only if
 * the token it was last written with is not higher than the writer's, in one conditional
 * statement,
 *
 * <pre class="code">
 * UPDATE account SET balance = ?, fence_token = ? WHERE id = ? AND (fence_token IS NULL OR fence_token &lt;= ?)
 * </pre>
 *
 * and tells a stale writer (the row exists, with a higher token) from a missing row. One
 * statement, so it needs no transaction of its own; inside one, the row stays locked
 * until the transaction ends. Add the column with
 * {@code ALTER TABLE account ADD COLUMN fence_token BIGINT}.
 */
public class FencedRowUpdate {

	/**
	 * The token column unless another is given.
	 */
	public static final String DEFAULT_TOKEN_COLUMN = "fence_token";

	private final JdbcTemplate jdbc;

	private final String tokenColumn;

	/**
	 * Create an updater for rows with a {@value #DEFAULT_TOKEN_COLUMN} column.
	 * @param dataSource the database of the rows
	 */
	public FencedRowUpdate(DataSource dataSource) {
		this(dataSource, DEFAULT_TOKEN_COLUMN);
	}

	/**
	 * Create an updater for rows with the given token column.
	 * @param dataSource the database of the rows
	 * @param tokenColumn the column holding the token each row was last written with
	 */
	public FencedRowUpdate(DataSource dataSource, String tokenColumn) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		FenceStatements.checkIdentifier("tokenColumn", tokenColumn);
		this.jdbc = new JdbcTemplate(dataSource);
		this.tokenColumn = tokenColumn;
	}

	/**
	 * Set the given columns of one row, and its token column to the token, unless the row
	 * was written with a higher token.
	 * @param table the table
	 * @param idColumn the column that identifies the row
	 * @param id the row's identifier
	 * @param values the new values by column name, in their order
	 * @param fencingToken the token of the lock held while writing
	 * @throws FencingTokenRejectedException if the row was written with a higher token
	 * (its resource is {@code table:id})
	 * @throws EmptyResultDataAccessException if there is no such row
	 */
	public void update(String table, String idColumn, Object id, Map<String, ?> values, long fencingToken) {
		FenceStatements.checkIdentifier("table", table);
		FenceStatements.checkIdentifier("idColumn", idColumn);
		Assert.notEmpty(values, "'values' must not be empty");
		values.keySet().forEach((column) -> FenceStatements.checkIdentifier("values", column));
		String token = this.tokenColumn;
		String sql = "UPDATE " + table + " SET "
				+ values.keySet().stream().map((column) -> column + " = ?").collect(Collectors.joining(", ")) + ", "
				+ token + " = ? WHERE " + idColumn + " = ? AND (" + token + " IS NULL OR " + token + " <= ?)";
		List<Object> arguments = new ArrayList<>(values.values());
		arguments.add(fencingToken);
		arguments.add(id);
		arguments.add(fencingToken);
		if (this.jdbc.update(sql, arguments.toArray()) == 0) {
			List<Long> recorded = this.jdbc
				.queryForList("SELECT " + token + " FROM " + table + " WHERE " + idColumn + " = ?", Long.class, id);
			if (recorded.isEmpty()) {
				throw new EmptyResultDataAccessException("No row of " + table + " where " + idColumn + " = " + id, 1);
			}
			Long higher = recorded.get(0);
			throw new FencingTokenRejectedException(table + ":" + id, fencingToken, (higher != null) ? higher : 0);
		}
	}

}
