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

package io.distlock.fencing;

import java.util.UUID;

import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests of the {@link LockCommitGuard} as Spring Boot registers it with its
 * transaction manager, on a real redis-server and H2: a {@code @DistributedLocked},
 * {@code @Transactional} method whose lock is deleted behind its back before it commits.
 */
class LockCommitGuardIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Test
	void aTransactionWhoseLockHeldCommits() {
		try (ConfigurableApplicationContext context = run()) {
			context.getBean(LedgerService.class).post(1, false);

			assertThat(rows(context)).isEqualTo(1);
		}
	}

	@Test
	void aTransactionWhoseLockWasDeletedBehindItsBackRollsBack() {
		try (ConfigurableApplicationContext context = run()) {
			assertThatExceptionOfType(LockLostBeforeCommitException.class)
				.isThrownBy(() -> context.getBean(LedgerService.class).post(2, true))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("ledger:2"))
				.withMessageContaining("rolled back");
			assertThat(rows(context)).isZero();
		}
	}

	@Test
	void turnedOffTheTransactionCommitsWhateverTheLock() {
		try (ConfigurableApplicationContext context = run("distlock.fencing.commit-guard=false")) {
			context.getBean(LedgerService.class).post(3, true);

			assertThat(context.getBeanNamesForType(LockCommitGuard.class)).isEmpty();
			assertThat(rows(context)).isEqualTo(1);
		}
	}

	private static ConfigurableApplicationContext run(String... properties) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(LedgerApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.main.banner-mode=off",
					"spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
			.properties(properties)
			.run();
		context.getBean(JdbcTemplate.class).execute("CREATE TABLE ledger (id BIGINT PRIMARY KEY)");
		return context;
	}

	private static int rows(ConfigurableApplicationContext context) {
		Integer rows = context.getBean(JdbcTemplate.class).queryForObject("SELECT COUNT(*) FROM ledger", Integer.class);
		return (rows != null) ? rows : 0;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LedgerApplication {

		@Bean
		LedgerService ledgerService(JdbcTemplate jdbc, LockTemplate template) {
			return new LedgerService(jdbc, template);
		}

	}

	static class LedgerService {

		private final JdbcTemplate jdbc;

		private final LockTemplate template;

		LedgerService(JdbcTemplate jdbc, LockTemplate template) {
			this.jdbc = jdbc;
			this.template = template;
		}

		@DistributedLocked(key = "'ledger:' + #id")
		@Transactional
		public void post(long id, boolean loseTheLock) {
			this.jdbc.update("INSERT INTO ledger (id) VALUES (?)", id);
			if (loseTheLock) {
				this.template.getEngine().forceRelease("ledger:" + id);
			}
		}

	}

}
