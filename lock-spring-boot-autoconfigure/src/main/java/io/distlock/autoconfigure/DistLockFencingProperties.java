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

package io.distlock.autoconfigure;

import io.distlock.fencing.jdbc.JdbcFence;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Configuration properties of the fencing kit, which carries fencing tokens into the
 * application's storage.
 */
@ConfigurationProperties("distlock.fencing")
public class DistLockFencingProperties {

	/**
	 * Whether a transaction that commits while its thread holds distlock locks first
	 * checks, in the store, that each is still held, and rolls back if one is not. One
	 * round trip per held lock per commit; nothing for threads that hold no lock.
	 */
	private boolean commitGuard = true;

	private final Jdbc jdbc = new Jdbc();

	public boolean isCommitGuard() {
		return this.commitGuard;
	}

	public void setCommitGuard(boolean commitGuard) {
		this.commitGuard = commitGuard;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	/**
	 * The fence table in the application's database (JdbcFence).
	 */
	public static class Jdbc {

		/**
		 * Name of the fence table, optionally schema-qualified.
		 */
		private String tableName = JdbcFence.DEFAULT_TABLE_NAME;

		/**
		 * When to create the fence table (if it does not exist) at startup: for an
		 * embedded database only, always, or never (the schema is managed elsewhere, by
		 * Flyway or Liquibase, say).
		 */
		private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public DatabaseInitializationMode getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

}
