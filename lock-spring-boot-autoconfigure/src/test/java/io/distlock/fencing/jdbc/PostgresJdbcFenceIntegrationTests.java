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

import java.io.IOException;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link JdbcFence} and {@link FencedRowUpdate} on a real PostgreSQL server, started by
 * the test from the binaries on the class path.
 */
class PostgresJdbcFenceIntegrationTests extends JdbcFenceContractTests {

	private static EmbeddedPostgres postgres;

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	@Override
	protected DataSource dataSource() {
		return postgres.getPostgresDatabase();
	}

	@Override
	protected DataSource anotherDataSourceOfTheSameDatabase() {
		return postgres.getDatabase("postgres", "postgres");
	}

	@Override
	protected int sessionsWaitingForALock(JdbcTemplate jdbc) {
		Integer waiting = jdbc.queryForObject("SELECT COUNT(*) FROM pg_locks WHERE NOT granted", Integer.class);
		return (waiting != null) ? waiting : 0;
	}

}
