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

import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs what docs/annotation.md shows, in a Spring Boot application on a real
 * redis-server.
 */
@SpringBootTest(classes = AnnotationExamplesIntegrationTests.TestApplication.class)
@DirtiesContext
class AnnotationExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	@Autowired
	private ShippingService shipping;

	@Test
	void composedAnnotationLocksWithItsDefaultKeyAndWithAnOverriddenOne() {
		this.shipping.ship(42);
		assertThat(this.shipping.shipped()).containsExactly("order:42");

		this.shipping.cancel(new ShippingService.Order(42));
		assertThat(this.shipping.shipped()).isEmpty();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		ShippingService shippingService() {
			return new ShippingService();
		}

	}

}
