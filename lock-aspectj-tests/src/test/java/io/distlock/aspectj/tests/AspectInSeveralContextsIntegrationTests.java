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

package io.distlock.aspectj.tests;

import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code distlock.aop.mode=aspectj} with two application contexts alive in one JVM, as
 * the test context cache keeps them, each on a real redis-server of its own: the woven
 * {@link RefundService} of each context is locked with its own context's template, and
 * closing one context leaves the other's configuration in place.
 */
class AspectInSeveralContextsIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(2);

	@Test
	void eachContextLocksItsOwnBeansInItsOwnRedis() {
		try (ConfigurableApplicationContext first = run(0); ConfigurableApplicationContext second = run(1)) {
			// Each bean reports whether its own context's Redis holds the lock.
			assertThat(first.getBean(RefundService.class).close(1)).isEqualTo("close:1 held=true");
			assertThat(second.getBean(RefundService.class).close(2)).isEqualTo("close:2 held=true");
			assertThat(first.getBean(RefundService.class).settleThroughPrivate(3)).isEqualTo("settle:3 held=true");
		}
	}

	@Test
	void closingTheFirstContextLeavesTheSecondLocking() {
		ConfigurableApplicationContext first = run(0);
		try (ConfigurableApplicationContext second = run(1)) {
			first.close();

			assertThat(second.getBean(RefundService.class).close(4)).isEqualTo("close:4 held=true");
		}
		finally {
			first.close();
		}
	}

	@Test
	void closingTheSecondContextLeavesTheFirstLockingAndFailsTheClosedOnesBeans() {
		try (ConfigurableApplicationContext first = run(0)) {
			RefundService closedOnes;
			try (ConfigurableApplicationContext second = run(1)) {
				closedOnes = second.getBean(RefundService.class);
			}

			assertThat(first.getBean(RefundService.class).close(5)).isEqualTo("close:5 held=true");
			assertThatIllegalStateException().isThrownBy(() -> closedOnes.close(6))
				.withMessageContaining("RefundService.close(long)")
				.withMessageContaining("context that is closed")
				.withMessageContaining("not configured");
		}
	}

	@Test
	void aWovenObjectThatNoContextCreatedFailsWhileSeveralContextsAreConfigured() {
		try (ConfigurableApplicationContext first = run(0); ConfigurableApplicationContext second = run(1)) {
			RefundService unmanaged = new RefundService(first.getBean(LockTemplate.class));

			assertThatIllegalStateException().isThrownBy(() -> unmanaged.close(7))
				.withMessageContaining("RefundService.close(long)")
				.withMessageContaining("not a bean of any of the 2 application contexts");
		}
	}

	@Test
	void aWovenObjectThatNoContextCreatedIsLockedByTheOneConfiguredContext() {
		try (ConfigurableApplicationContext first = run(0)) {
			RefundService unmanaged = new RefundService(first.getBean(LockTemplate.class));

			assertThat(unmanaged.close(8)).isEqualTo("close:8 held=true");
		}
	}

	private static ConfigurableApplicationContext run(int server) {
		return new SpringApplicationBuilder(WovenApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint(server).host(),
					"spring.data.redis.port=" + redis.endpoint(server).port(), "spring.main.banner-mode=off",
					"distlock.aop.mode=aspectj")
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WovenApplication {

		@Bean
		RefundService refundService(LockTemplate template) {
			return new RefundService(template);
		}

	}

}
