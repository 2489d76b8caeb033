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

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * {@link JdbcFence} and {@link FencedRowUpdate} on an in-memory H2 database.
 */
class H2JdbcFenceIntegrationTests extends JdbcFenceContractTests {

	private String url;

	@Override
	protected DataSource dataSource() {
		this.url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=20000";
		return new SimpleDriverDataSource(new org.h2.Driver(), this.url, "sa", "");
	}

	@Override
	protected DataSource anotherDataSourceOfTheSameDatabase() {
		return new SimpleDriverDataSource(new org.h2.Driver(), this.url, "sa", "");
	}

	@Override
	protected int sessionsWaitingForALock(JdbcTemplate jdbc) {
		// Blocked on a row lock; an insert of a key another transaction inserted spins.
		Integer waiting = jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE "
				+ "BLOCKER_ID IS NOT NULL OR (SESSION_STATE = 'RUNNING' AND EXECUTING_STATEMENT LIKE 'INSERT INTO%')",
				Integer.class);
		return (waiting != null) ? waiting : 0;
	}

}
