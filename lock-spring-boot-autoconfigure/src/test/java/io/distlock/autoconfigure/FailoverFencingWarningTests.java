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

import io.distlock.fencing.redis.RedisFencedWrites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the startup warning for fencing on Redis Sentinel or Cluster without
 * {@code distlock.replication.min-replicas}: there the old primary can go on granting
 * after a failover, and tokens stay ordered only under a condition on its clock
 * (docs/deployments.md). No Redis is needed: the connection factories connect lazily.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailoverFencingWarningTests {

	private static final String WARNING = "without distlock.replication.min-replicas";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class));

	@Test
	void fencingOnSentinelWithoutMinReplicasIsWarnedOfAtStartup(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(FencedWritesConfiguration.class)
			.withPropertyValues("spring.data.redis.sentinel.master=mymaster",
					"spring.data.redis.sentinel.nodes=127.0.0.1:26379")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains(WARNING).contains("Sentinel");
			});
	}

	@Test
	void fencingOnClusterWithoutMinReplicasIsWarnedOfAtStartup(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(FencedWritesConfiguration.class)
			.withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:7000")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains(WARNING).contains("Cluster");
			});
	}

	@Test
	void fencingOnSentinelWithMinReplicasIsNotWarnedOf(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(FencedWritesConfiguration.class)
			.withPropertyValues("spring.data.redis.sentinel.master=mymaster",
					"spring.data.redis.sentinel.nodes=127.0.0.1:26379", "distlock.replication.min-replicas=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain(WARNING);
			});
	}

	@Test
	void sentinelWithoutFencingIsNotWarnedOf(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("spring.data.redis.sentinel.master=mymaster",
					"spring.data.redis.sentinel.nodes=127.0.0.1:26379")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain(WARNING);
			});
	}

	@Test
	void fencingOnASingleRedisIsNotWarnedOf(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(FencedWritesConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain(WARNING);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class FencedWritesConfiguration {

		@Bean
		RedisFencedWrites fencedWrites(RedisConnectionFactory connectionFactory) {
			return new RedisFencedWrites(connectionFactory);
		}

	}

}
