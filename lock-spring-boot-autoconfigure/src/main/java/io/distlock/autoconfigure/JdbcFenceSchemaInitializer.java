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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.fencing.jdbc.JdbcFence;

import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PlatformPlaceholderDatabaseDriverResolver;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.util.StreamUtils;

/**
 * Creates the fence table of {@link JdbcFence} at startup, as
 * {@code distlock.fencing.jdbc.initialize-schema} says, with the script for the
 * database's platform ({@code schema-postgresql.sql}, {@code schema-mysql.sql},
 * {@code schema-mariadb.sql}, {@code schema-h2.sql}, else the portable
 * {@code schema.sql}) and the configured table name. A
 * {@link DataSourceScriptDatabaseInitializer}, so Spring Boot runs it before the beans
 * that depend on the database being initialized.
 */
class JdbcFenceSchemaInitializer extends DataSourceScriptDatabaseInitializer {

	private static final String SCRIPTS = "classpath:io/distlock/fencing/jdbc/";

	private final String tableName;

	JdbcFenceSchemaInitializer(DataSource dataSource, DistLockFencingProperties.Jdbc properties) {
		super(dataSource, settings(dataSource, properties.getInitializeSchema()));
		this.tableName = properties.getTableName();
	}

	private static DatabaseInitializationSettings settings(DataSource dataSource, DatabaseInitializationMode mode) {
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		settings.setMode(mode);
		if (mode != DatabaseInitializationMode.NEVER) {
			List<String> locations = new PlatformPlaceholderDatabaseDriverResolver().resolveAll(dataSource,
					SCRIPTS + "schema-@@platform@@.sql");
			boolean found = locations.stream()
				.allMatch((location) -> new DefaultResourceLoader().getResource(location).exists());
			settings.setSchemaLocations(found ? locations : List.of(SCRIPTS + "schema.sql"));
		}
		return settings;
	}

	@Override
	protected void runScripts(Scripts scripts) {
		// The scripts name the default table.
		Charset encoding = (scripts.getEncoding() != null) ? scripts.getEncoding() : StandardCharsets.UTF_8;
		List<Resource> named = new ArrayList<>();
		for (Resource script : scripts) {
			named.add(new ByteArrayResource(
					read(script, encoding).replace(JdbcFence.DEFAULT_TABLE_NAME, this.tableName).getBytes(encoding),
					script.getDescription()));
		}
		super.runScripts(new Scripts(named).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(encoding));
	}

	private static String read(Resource script, Charset encoding) {
		try {
			return StreamUtils.copyToString(script.getInputStream(), encoding);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + script, ex);
		}
	}

}
