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

package io.distlock.test.docs;

import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockAcquisitionException;
import io.distlock.annotation.DistributedLocked;
import io.distlock.test.CriticalSections;
import io.distlock.test.autoconfigure.AutoConfigureRedisServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recipe of docs/testing.md that proves two calls of a locked method never overlap,
 * with {@link CriticalSections}, on a real redis-server: a user's {@code @SpringBootTest}
 * whose locked method calls a collaborator, replaced in the test by one that runs the
 * critical section of the calling thread.
 */
@SpringBootTest(classes = NoOverlapIntegrationTests.TestApplication.class)
@AutoConfigureRedisServer
class NoOverlapIntegrationTests {

	@Autowired
	OrderService orders;

	@Autowired
	SectionRunningGateway gateway;

	@Test
	void paymentsOfOneOrderNeverOverlap() throws Exception {
		AtomicInteger refused = new AtomicInteger();
		// 8 threads, 25 calls each: a call that gets the lock runs one section
		CriticalSections sections = CriticalSections.run(8, 25, (section) -> {
			try {
				this.gateway.runDuringCharge(section, () -> this.orders.pay(42));
			}
			catch (LockAcquisitionException busy) {
				refused.incrementAndGet(); // another call held order:42 (waitTime is 0)
			}
		});

		assertThat(sections.overlaps()).isZero();
		// every section that ran was counted: no update lost
		assertThat(sections.count()).isPositive().isEqualTo(8 * 25 - refused.get());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		SectionRunningGateway gateway() {
			return new SectionRunningGateway();
		}

		@Bean
		OrderService orderService(PaymentGateway gateway) {
			return new OrderService(gateway);
		}

	}

	/**
	 * The application's locked bean.
	 */
	static class OrderService {

		private final PaymentGateway gateway;

		OrderService(PaymentGateway gateway) {
			this.gateway = gateway;
		}

		@DistributedLocked(key = "'order:' + #orderId")
		public void pay(long orderId) {
			this.gateway.charge(orderId);
		}

	}

	/**
	 * What the locked method calls.
	 */
	interface PaymentGateway {

		void charge(long orderId);

	}

	/**
	 * The test's gateway: a charge runs the critical section that the calling thread was
	 * given, so the section runs exactly while {@code pay} holds its lock.
	 */
	static class SectionRunningGateway implements PaymentGateway {

		private final ThreadLocal<@Nullable Runnable> section = new ThreadLocal<>();

		void runDuringCharge(Runnable section, Runnable call) {
			this.section.set(section);
			try {
				call.run();
			}
			finally {
				this.section.remove();
			}
		}

		@Override
		public void charge(long orderId) {
			Runnable current = this.section.get();
			if (current != null) {
				current.run();
			}
		}

	}

}
