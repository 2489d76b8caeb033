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
package io.distlock.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.annotation.AliasFor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockedReflectiveProcessor}, through the registrar that
 * Spring's AOT processing runs on every bean type.
 */
class DistributedLockedReflectiveProcessorTests {

	@Test
	void givenALockedMethodWhenHintsAreRegisteredThenTheMethodCanBeInvoked() {
		RuntimeHints hints = hintsFor(Orders.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Orders.class, "pay")).accepts(hints);
	}

	@Test
	void givenAFallbackMethodWhenHintsAreRegisteredThenTheFallbackCanBeInvoked() {
		RuntimeHints hints = hintsFor(Orders.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Orders.class, "payLater")).accepts(hints);
	}

	@Test
	void givenAComposedAnnotationWithAFallbackWhenHintsAreRegisteredThenTheFallbackCanBeInvoked() {
		RuntimeHints hints = hintsFor(Orders.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Orders.class, "refund")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Orders.class, "refundLater")).accepts(hints);
	}

	@Test
	void givenAKeyReadingArgumentPropertiesWhenHintsAreRegisteredThenThePropertiesCanBeRead() {
		RuntimeHints hints = hintsFor(Orders.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Order.class, "customer")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Customer.class, "id")).accepts(hints);
	}

	@Test
	void givenKeysReadingArgumentPropertiesWhenHintsAreRegisteredThenThePropertiesCanBeRead() {
		RuntimeHints hints = hintsFor(Transfers.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Customer.class, "id")).accepts(hints);
	}

	@Test
	void givenALiteralKeyWhenHintsAreRegisteredThenNoArgumentTypeIsRegistered() {
		RuntimeHints hints = hintsFor(Reports.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Reports.class, "run")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Order.class)).rejects(hints);
	}

	private static RuntimeHints hintsFor(Class<?> type) {
		RuntimeHints hints = new RuntimeHints();
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, type);
		return hints;
	}

	record Customer(String id) {

	}

	record Order(Customer customer) {

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLocked
	@interface RefundLock {

		@AliasFor(annotation = DistributedLocked.class)
		String key();

		@AliasFor(annotation = DistributedLocked.class)
		String fallbackMethod();

	}

	static class Orders {

		@DistributedLocked(key = "#order.customer.id", onFailure = LockFailurePolicy.FALLBACK,
				fallbackMethod = "payLater")
		void pay(Order order) {
		}

		void payLater(Order order) {
		}

		@RefundLock(key = "#p0", fallbackMethod = "refundLater")
		void refund(long orderId) {
		}

		void refundLater(long orderId) {
		}

	}

	static class Transfers {

		@DistributedLocked(keys = { "'fixed'", "#customers.![id]" })
		void transfer(List<Customer> customers) {
		}

	}

	static class Reports {

		@DistributedLocked(key = "daily-report")
		void run(Order order) {
		}

	}

}
