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

import java.lang.reflect.Method;
import java.time.Duration;

import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.AnnotationLockOperationSource;
import io.distlock.interceptor.InvalidLockOperationException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link InvalidLockOperationFailureAnalyzer}, on the failures the operation
 * source really throws.
 */
class InvalidLockOperationFailureAnalyzerTests {

	private final InvalidLockOperationFailureAnalyzer analyzer = new InvalidLockOperationFailureAnalyzer();

	@Test
	void invalidTtlIsDescribedWithTheMethodAndValueAndFixedWithTheDurationFormats() {
		FailureAnalysis analysis = analyze("pay");
		assertThat(analysis.getDescription()).isEqualTo(String.format(
				"Invalid @DistributedLocked on 'public void %s.pay(long)':%n%n    ttl 'soon' is not a valid duration; "
						+ "use a number with a unit (500ms, 10s, 2m, 1h, 1d) or ISO-8601 (PT10S)",
				Orders.class.getName()));
		assertThat(analysis.getAction()).isEqualTo("Fix the ttl attribute of @DistributedLocked on "
				+ "InvalidLockOperationFailureAnalyzerTests.Orders.pay(long): use a duration of at least 1ms and at "
				+ "most 365d, as a number with a unit (500ms, 10s, 2m, 1h, 1d) or ISO-8601 (PT10S), or a ${...} "
				+ "placeholder that resolves to one.");
	}

	@Test
	void invalidKeyIsFixedWithTheKeyForms() {
		FailureAnalysis analysis = analyze("refund");
		assertThat(analysis.getDescription()).contains("Orders.refund(long,java.lang.String)")
			.contains("key '#ordrId' refers to #ordrId, but the method has no such parameter");
		assertThat(analysis.getAction()).startsWith("Fix the key attribute of @DistributedLocked on "
				+ "InvalidLockOperationFailureAnalyzerTests.Orders.refund(long, String): use a literal key, or a "
				+ "SpEL expression over the method's parameters (#orderId, #p0)");
	}

	@Test
	void methodThatCannotBeLockedIsToBeChangedOrUnannotated() {
		FailureAnalysis analysis = analyze("ship");
		assertThat(analysis.getDescription()).contains("the method is final");
		assertThat(analysis.getAction()).isEqualTo("Change InvalidLockOperationFailureAnalyzerTests.Orders.ship() "
				+ "as described above, or remove @DistributedLocked from it.");
	}

	@Test
	void failureIsFoundBehindTheBeanCreationException() {
		InvalidLockOperationException invalid = invalid("pay");
		FailureAnalysis analysis = this.analyzer
			.analyze(new BeanCreationException("orders", "Initialization of bean failed", invalid));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getCause()).isSameAs(invalid);
	}

	private FailureAnalysis analyze(String methodName) {
		return this.analyzer.analyze(invalid(methodName));
	}

	private static InvalidLockOperationException invalid(String methodName) {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource(Duration.ofSeconds(30), Duration.ZERO);
		InvalidLockOperationException invalid = catchThrowableOfType(InvalidLockOperationException.class,
				() -> source.getLockOperation(method(methodName), Orders.class));
		assertThat(invalid).as("failure of " + methodName).isNotNull();
		return invalid;
	}

	private static Method method(String name) {
		for (Method method : ReflectionUtils.getDeclaredMethods(Orders.class)) {
			if (method.getName().equals(name)) {
				return method;
			}
		}
		throw new IllegalArgumentException(name);
	}

	static class Orders {

		@DistributedLocked(key = "#orderId", ttl = "soon")
		public void pay(long orderId) {
		}

		@DistributedLocked(key = "#ordrId")
		public void refund(long orderId, String reason) {
		}

		@DistributedLocked(key = "shipping")
		public final void ship() {
		}

	}

}
