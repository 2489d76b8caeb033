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
package io.distlock.boot3;

import io.distlock.annotation.DistributedLocked;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.interceptor.InvalidLockOperationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that a Spring Boot 3.5 application with an invalid {@code @DistributedLocked}
 * fails to start with the failure report that names the method and the fix, as on Spring
 * Boot 4. No Redis is needed: the annotation is checked before any connection.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidAnnotationOnBoot3Tests {

	@Test
	void invalidAnnotationEndsInAFailureReportNamingTheMethodAndTheFix(CapturedOutput output) {
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> new SpringApplicationBuilder(BadAnnotationApplication.class).web(WebApplicationType.NONE)
				.run()
				.close())
			.havingRootCause()
			.isInstanceOf(InvalidLockOperationException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid @DistributedLocked on 'public void " + Orders.class.getName() + ".pay(long)':")
			.contains("ttl 'soon' is not a valid duration")
			.contains("Action:");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RedisAutoConfiguration.class, DistLockAutoConfiguration.class })
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
