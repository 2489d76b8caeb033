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

import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockContext;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.DistLockIntegrationAutoConfiguration;
import io.distlock.autoconfigure.DistLockJdbcFencingAutoConfiguration;
import io.distlock.autoconfigure.DistLockShedLockAutoConfiguration;
import io.distlock.fencing.FencingTokenRejectedException;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link JdbcFence#check(String)} inside a ShedLock {@code @SchedulerLock} job and under
 * a Spring Integration {@code DistributedLock}, on real Redis and an H2 database: it
 * records the token of the lock the adapter took, and a holder with a lower token is then
 * refused.
 */
class AdapterLocksJdbcFenceIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockShedLockAutoConfiguration.class, DistLockIntegrationAutoConfiguration.class,
				DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
				TransactionAutoConfiguration.class, DistLockJdbcFencingAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(),
				"spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
		.withUserConfiguration(FencedJobs.class);

	@Test
	void schedulerLockJobRecordsItsTokenAndALowerOneIsRefused() {
		this.contextRunner.run((context) -> {
			FencedReport report = context.getBean(FencedReport.class);
			report.run();
			long token = recorded(new JdbcTemplate(context.getBean(DataSource.class)), "fenced-report");
			assertThat(token).isEqualTo(report.token()).isPositive();
			TransactionTemplate transaction = context.getBean(TransactionTemplate.class);
			assertThatExceptionOfType(FencingTokenRejectedException.class).isThrownBy(() -> transaction
				.executeWithoutResult((status) -> context.getBean(JdbcFence.class).check("fenced-report", token - 1)));
		});
	}

	@Test
	void distributedLockHolderRecordsItsToken() {
		this.contextRunner.run((context) -> {
			DistributedLock lock = (DistributedLock) context.getBean(LockRegistry.class).obtain("fenced-order");
			JdbcFence fence = context.getBean(JdbcFence.class);
			long token;
			lock.lock();
			try {
				token = LockContext.require().fencingToken();
				context.getBean(TransactionTemplate.class)
					.executeWithoutResult((status) -> fence.check("fenced-order"));
			}
			finally {
				lock.unlock();
			}
			assertThat(recorded(new JdbcTemplate(context.getBean(DataSource.class)), "fenced-order")).isEqualTo(token);
		});
	}

	private static long recorded(JdbcTemplate jdbc, String resource) {
		Long token = jdbc.queryForObject("SELECT token FROM distlock_fence WHERE resource = ?", Long.class, resource);
		return (token != null) ? token : -1;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableSchedulerLock(defaultLockAtMostFor = "1m")
	static class FencedJobs {

		@Bean
		FencedReport fencedReport(JdbcFence fence) {
			return new FencedReport(fence);
		}

	}

	static class FencedReport {

		private final JdbcFence fence;

		private volatile long token;

		FencedReport(JdbcFence fence) {
			this.fence = fence;
		}

		@SchedulerLock(name = "fenced-report")
		@Transactional
		public void run() {
			this.token = LockContext.require().fencingToken();
			this.fence.check("fenced-report");
		}

		public long token() {
			return this.token;
		}

	}

}
