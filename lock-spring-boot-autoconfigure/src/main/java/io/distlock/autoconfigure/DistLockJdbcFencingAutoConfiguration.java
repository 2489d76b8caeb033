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

import javax.sql.DataSource;

import io.distlock.fencing.jdbc.FencedRowUpdate;
import io.distlock.fencing.jdbc.JdbcFence;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the JDBC fencing kit: with Spring JDBC and one
 * {@link DataSource}, a {@link JdbcFence} on the fence table (created at startup as
 * {@code distlock.fencing.jdbc.initialize-schema} says) and a {@link FencedRowUpdate} for
 * rows with their own token column.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(name = { "io.distlock.fencing.jdbc.JdbcFence", "org.springframework.jdbc.core.JdbcTemplate",
		"org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer" })
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistLockFencingProperties.class)
public final class DistLockJdbcFencingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JdbcFence jdbcFence(DataSource dataSource, DistLockFencingProperties properties) {
		return new JdbcFence(dataSource, properties.getJdbc().getTableName());
	}

	@Bean
	@ConditionalOnMissingBean
	FencedRowUpdate fencedRowUpdate(DataSource dataSource) {
		return new FencedRowUpdate(dataSource);
	}

	@Bean
	@ConditionalOnMissingBean
	JdbcFenceSchemaInitializer jdbcFenceSchemaInitializer(DataSource dataSource, DistLockFencingProperties properties) {
		return new JdbcFenceSchemaInitializer(dataSource, properties.getJdbc());
	}

}
