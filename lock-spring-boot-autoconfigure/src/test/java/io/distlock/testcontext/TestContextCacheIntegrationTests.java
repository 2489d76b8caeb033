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

package io.distlock.testcontext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import io.distlock.annotation.DistributedLocked;
import io.distlock.test.RedisServerExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ApplicationContextEvent;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Integration tests for locked calls in a test suite of several Spring Boot test classes,
 * as users write them: three ordinary {@code @SpringBootTest} classes run in one JVM, the
 * first and the third sharing their configuration and the second not. Spring Framework
 * 7's test context cache pauses the first class's context when the second needs another
 * one, and restarts it for the third, whose locked call must work as the first's did.
 */
class TestContextCacheIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	static final List<String> contextEvents = new CopyOnWriteArrayList<>();

	@Test
	void lockedCallsWorkInEveryTestClassWhenTheContextCachePausesAndRestartsTheirContexts() {
		contextEvents.clear();
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(ThirdShopTests.class), selectClass(FirstShopTests.class),
					selectClass(SecondReportsTests.class))
			.configurationParameter(ClassOrderer.DEFAULT_ORDER_PROPERTY_NAME,
					ClassOrderer.OrderAnnotation.class.getName())
			.execute();
		List<String> failures = results.testEvents()
			.failed()
			.stream()
			.map((event) -> event.getTestDescriptor().getDisplayName() + ": "
					+ event.getPayload(TestExecutionResult.class)
						.flatMap(TestExecutionResult::getThrowable)
						.map(Throwable::toString)
						.orElse("failed"))
			.toList();
		assertThat(failures).isEmpty();
		results.testEvents().assertStatistics((stats) -> stats.started(3).succeeded(3));
		// The cache really paused the shop's context when the second class needed
		// another one, and restarted it for the third.
		assertThat(contextEvents).containsSubsequence("ran first", "ContextPausedEvent shop", "ran second",
				"ContextRestartedEvent shop", "ran third");
	}

	/**
	 * The configuration the first and third test classes share.
	 */
	@SpringBootTest(classes = ShopApplication.class)
	abstract static class ShopTestCase {

		@DynamicPropertySource
		static void redisProperties(DynamicPropertyRegistry registry) {
			registry.add("spring.data.redis.host", () -> redis.endpoint().host());
			registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		}

		@Autowired
		OrderService orders;

	}

	@Order(1)
	static class FirstShopTests extends ShopTestCase {

		@Test
		void paysAnOrderUnderItsLock() {
			assertThat(this.orders.pay(1)).isEqualTo("paid 1");
			contextEvents.add("ran first");
		}

	}

	@Order(2)
	@SpringBootTest(classes = ShopApplication.class, properties = "shop.name=reports")
	@DirtiesContext
	static class SecondReportsTests extends ShopTestCase {

		@Test
		void paysAnOrderUnderItsLockInAnotherContext() {
			assertThat(this.orders.pay(2)).isEqualTo("paid 2");
			contextEvents.add("ran second");
		}

	}

	@Order(3)
	@DirtiesContext
	static class ThirdShopTests extends ShopTestCase {

		@Test
		void paysAnOrderUnderItsLockInTheRestartedContext() {
			assertThat(this.orders.pay(3)).isEqualTo("paid 3");
			contextEvents.add("ran third");
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ShopApplication {

		@Bean
		OrderService orderService() {
			return new OrderService();
		}

		@Bean
		ApplicationListener<ApplicationContextEvent> contextEventRecorder(@Value("${shop.name:shop}") String name) {
			return (event) -> contextEvents.add(event.getClass().getSimpleName() + " " + name);
		}

	}

	static class OrderService {

		@DistributedLocked(key = "'order:' + #orderId", ttl = "10s")
		public String pay(long orderId) {
			return "paid " + orderId;
		}

	}

}
