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

package io.distlock.docs;

import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import io.distlock.fencing.FencingTokenRejectedException;
import io.distlock.fencing.jdbc.FencedRowUpdate;
import io.distlock.fencing.jdbc.JdbcFence;
import io.distlock.fencing.redis.RedisFencedWrites;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Runs the fencing kit's examples of docs/fencing.md ({@link AccountLedger}) in a Spring
 * Boot application on H2 and a real redis-server: each write records the lock's token,
 * and a write with a lower token, as a holder whose lease ran out would make, is refused.
 */
class FencingKitExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private ConfigurableApplicationContext context;

	private AccountLedger ledger;

	private JdbcTemplate jdbc;

	@BeforeEach
	void startApplication() {
		this.context = new SpringApplicationBuilder(LedgerApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.main.banner-mode=off",
					"spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
			.run();
		this.jdbc = new JdbcTemplate(this.context.getBean(DataSource.class));
		// The table docs/fencing.md shows
		new ResourceDatabasePopulator(new ClassPathResource("io/distlock/docs/account.sql"))
			.execute(this.context.getBean(DataSource.class));
		this.jdbc.update("INSERT INTO account (id, balance) VALUES (1, 0)");
		this.ledger = this.context.getBean(AccountLedger.class);
	}

	@AfterEach
	void closeApplication() {
		this.context.close();
	}

	@Test
	void aCreditRecordsItsTokenInTheFenceTableAndALowerTokenIsRefused() {
		this.ledger.credit(1, 10);

		Long recorded = this.jdbc.queryForObject("SELECT token FROM distlock_fence WHERE resource = 'account:1'",
				Long.class);
		assertThat(recorded).isNotNull();
		assertThat(this.jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Long.class)).isEqualTo(10);
		TransactionTemplate transaction = new TransactionTemplate(
				this.context.getBean(PlatformTransactionManager.class));
		JdbcFence fence = this.context.getBean(JdbcFence.class);
		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> transaction.executeWithoutResult((status) -> fence.check("account:1", recorded - 1)));
	}

	@Test
	void aRowUpdateWritesTheTokenColumnAndALowerTokenIsRefused() {
		this.ledger.setBalance(1, 50);

		Long written = this.jdbc.queryForObject("SELECT fence_token FROM account WHERE id = 1", Long.class);
		assertThat(written).isNotNull();
		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.context.getBean(FencedRowUpdate.class)
				.update("account", "id", 1L, Map.of("balance", 0L), written - 1));
		assertThat(this.jdbc.queryForObject("SELECT balance FROM account WHERE id = 1", Long.class)).isEqualTo(50);
	}

	@Test
	void aFencedRedisWriteRefusesALowerToken() {
		this.ledger.cacheBalance(1, 7);

		assertThatExceptionOfType(FencingTokenRejectedException.class)
			.isThrownBy(() -> this.context.getBean(RedisFencedWrites.class).set("balance:1", "0", 1));
		assertThat(this.context.getBean(StringRedisTemplate.class).opsForValue().get("balance:1")).isEqualTo("7");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LedgerApplication {

		@Bean
		RedisFencedWrites redisFencedWrites(RedisConnectionFactory connectionFactory) {
			return new RedisFencedWrites(connectionFactory);
		}

		@Bean
		AccountLedger accountLedger(JdbcFence fence, FencedRowUpdate rows, RedisFencedWrites redisWrites,
				DataSource dataSource) {
			return new AccountLedger(fence, rows, redisWrites, new JdbcTemplate(dataSource));
		}

	}

}
