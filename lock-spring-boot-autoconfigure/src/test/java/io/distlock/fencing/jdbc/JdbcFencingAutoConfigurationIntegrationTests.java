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
import java.util.UUID;

import javax.sql.DataSource;

import io.distlock.LockContext;
import io.distlock.annotation.DistributedLocked;
import io.distlock.autoconfigure.DistLockJdbcFencingAutoConfiguration;
import io.distlock.test.RedisServerExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the auto-configured {@link JdbcFence}: the bean, the fence table created as
 * {@code distlock.fencing.jdbc.initialize-schema} says on H2 and on a real PostgreSQL,
 * and a check inside {@code @DistributedLocked} and {@code @Transactional} taking the
 * method's lock, on a real redis-server.
 */
class JdbcFencingAutoConfigurationIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static EmbeddedPostgres postgres;

	private final ApplicationContextRunner h2 = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DataSourceAutoConfiguration.class, DistLockJdbcFencingAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	@Test
	void anEmbeddedDatabaseGetsTheFenceTableByDefault() {
		this.h2.run((context) -> {
			assertThat(context).hasSingleBean(JdbcFence.class).hasSingleBean(FencedRowUpdate.class);
			assertThat(tableExists(context.getBean(DataSource.class), "distlock_fence")).isTrue();
		});
	}

	@Test
	void neverLeavesTheSchemaAlone() {
		this.h2.withPropertyValues("distlock.fencing.jdbc.initialize-schema=never")
			.run((context) -> assertThat(tableExists(context.getBean(DataSource.class), "distlock_fence")).isFalse());
	}

	@Test
	void aServerDatabaseGetsNoTableByDefaultAndOneWithAlways() {
		DataSource dataSource = freshPostgresDatabase();
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DistLockJdbcFencingAutoConfiguration.class))
			.withBean(DataSource.class, () -> dataSource);

		runner.run((context) -> assertThat(tableExists(dataSource, "distlock_fence")).isFalse());
		runner
			.withPropertyValues("distlock.fencing.jdbc.initialize-schema=always",
					"distlock.fencing.jdbc.table-name=orders_fence")
			.run((context) -> {
				assertThat(tableExists(dataSource, "orders_fence")).isTrue();
				assertThat(context.getBean(JdbcFence.class).getTableName()).isEqualTo("orders_fence");
			});
	}

	@Test
	void withoutADataSourceThereIsNoFence() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DistLockJdbcFencingAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcFence.class));
	}

	@Test
	void aCheckInsideALockedTransactionalMethodRecordsTheMethodsToken() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(AccountApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.main.banner-mode=off",
					"spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
			.run()) {
			long token = context.getBean(AccountService.class).credit(1);

			assertThat(new JdbcTemplate(context.getBean(DataSource.class))
				.queryForObject("SELECT token FROM distlock_fence WHERE resource = 'account:1'", Long.class))
				.isEqualTo(token);
		}
	}

	private static DataSource freshPostgresDatabase() {
		String name = "fence_" + UUID.randomUUID().toString().replace("-", "");
		new JdbcTemplate(postgres.getPostgresDatabase()).execute("CREATE DATABASE " + name);
		return postgres.getDatabase("postgres", name);
	}

	private static boolean tableExists(DataSource dataSource, String table) {
		Integer tables = new JdbcTemplate(dataSource).queryForObject(
				"SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE LOWER(TABLE_NAME) = ?", Integer.class, table);
		return tables != null && tables > 0;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class AccountApplication {

		@Bean
		AccountService accountService(JdbcFence fence) {
			return new AccountService(fence);
		}

	}

	static class AccountService {

		private final JdbcFence fence;

		AccountService(JdbcFence fence) {
			this.fence = fence;
		}

		@DistributedLocked(key = "'account:' + #id")
		@Transactional
		public long credit(long id) {
			this.fence.check("account:" + id);
			return LockContext.require().fencingToken();
		}

	}

}
