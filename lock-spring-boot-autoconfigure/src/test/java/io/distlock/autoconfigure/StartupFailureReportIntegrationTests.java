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

import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.InvalidLockOperationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that a real {@code SpringApplication} ends a distlock startup failure with Spring
 * Boot's failure report, a Description and an Action, instead of a stack trace. No Redis
 * is needed: each failure comes before any connection.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportIntegrationTests {

	@Test
	void invalidAnnotationEndsInAFailureReportNamingTheMethodAndTheFix(CapturedOutput output) {
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> run(BadAnnotationApplication.class))
			.havingRootCause()
			.isInstanceOf(InvalidLockOperationException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:")
			.contains("Invalid @DistributedLocked on 'public void " + Orders.class.getName() + ".pay(long)':")
			.contains("ttl 'soon' is not a valid duration")
			.contains("Action:")
			.contains("Fix the ttl attribute of @DistributedLocked on StartupFailureReportIntegrationTests.Orders"
					+ ".pay(long): use a duration of at least 1ms and at most 365d");
	}

	@Test
	void tooFewRedlockNodesEndInAFailureReportWithoutTheirCredentials(CapturedOutput output) {
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> run(RedisApplication.class,
					"--distlock.redlock.nodes=redis://:s3cret@127.0.0.1:1,redis://:s3cret@127.0.0.1:2"))
			.havingRootCause()
			.isInstanceOf(InvalidDistLockPropertyException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid value for configuration property 'distlock.redlock.nodes' (originating from ")
			.contains("Value: [redis://..., redis://...]")
			.contains("Reason: distlock.redlock.nodes lists 2 nodes, but Redlock needs at least 3 independent Redis "
					+ "masters")
			.contains("List an odd number of at least 3 independent Redis masters in distlock.redlock.nodes")
			.doesNotContain("s3cret");
	}

	private static void run(Class<?> application, String... args) {
		new SpringApplicationBuilder(application).web(WebApplicationType.NONE).run(args).close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class })
	static class RedisApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class })
	static class BadAnnotationApplication {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders {

		@DistributedLocked(key = "#orderId", ttl = "soon")
		public void pay(long orderId) {
		}

	}

}
