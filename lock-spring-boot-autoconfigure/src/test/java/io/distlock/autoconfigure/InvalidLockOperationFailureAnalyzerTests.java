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
import java.util.concurrent.CompletableFuture;

import io.distlock.LockMode;
import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.AnnotationLockOperationSource;
import io.distlock.interceptor.InvalidLockOperationException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

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
	void renewedTtlTooShortIsFixedWithALongerTtlOrAFixedLease() {
		FailureAnalysis analysis = analyze("confirm");
		assertThat(analysis.getDescription()).contains("Orders.confirm(long)")
			.contains("ttl '10' is read as 10ms (a number without a unit is milliseconds); write \"10s\"");
		assertThat(analysis.getAction()).isEqualTo("Fix the ttl attribute of @DistributedLocked on "
				+ "InvalidLockOperationFailureAnalyzerTests.Orders.confirm(long): use a ttl of at least 500ms with a "
				+ "unit, such as 10s, or set autoRenew = false for a lease held for its ttl at most.");
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
	void keysTogetherWithKeyAreFixedByRemovingOneOfThem() {
		assertThat(analyze("transferWithKey").getAction()).isEqualTo("Fix the keys attribute of @DistributedLocked on "
				+ "InvalidLockOperationFailureAnalyzerTests.Orders.transferWithKey(long, long): remove key to lock the "
				+ "keys, or remove keys to lock the one key.");
	}

	@Test
	void keysTogetherWithFairAreFixedByRemovingFairOrLockingOneKey() {
		assertThat(analyze("transferFairly").getAction()).endsWith(
				"transferFairly(long, long): remove fair = true, as several keys are taken in a fixed order and not "
						+ "in arrival order; or lock one key with key instead.");
	}

	@Test
	void keysOnAnAsynchronousMethodAreLockedWithTheTemplateInsideIt() {
		assertThat(analyze("transferLater").getAction())
			.endsWith("transferLater(long, long): lock the keys with LockTemplate.executeAll inside the method, or "
					+ "make it a blocking method, returning neither a CompletionStage, Mono nor Flux and not a "
					+ "suspend function.");
	}

	@Test
	void readModeOnAReactiveMethodIsFixedWithAnExclusiveModeOrABlockingMethod() {
		assertThat(analyze("readReactively").getAction()).isEqualTo("Fix the mode attribute of @DistributedLocked on "
				+ "InvalidLockOperationFailureAnalyzerTests.Orders.readReactively(): use mode = EXCLUSIVE or "
				+ "WRITE, as a reactive or suspend method takes exclusive locks only; or make the method blocking "
				+ "to share a read lock.");
	}

	@Test
	void permitsBelowOneAreFixedWithOneOrMore() {
		assertThat(analyze("noPermits").getAction()).endsWith(
				"noPermits(): use permits = 1 for an exclusive lock, or a number above 1 for a concurrency limit.");
	}

	@Test
	void permitsWithAReadModeAreFixedByRemovingOneOfThem() {
		assertThat(analyze("readPermits").getAction()).endsWith(
				"readPermits(): remove mode for a concurrency limit, or remove permits for a read or write lock.");
	}

	@Test
	void minHoldLongerThanAFixedTtlIsFixedWithALongerTtlOrRenewal() {
		assertThat(analyze("holdLongerThanTtl").getAction()).isEqualTo("Fix the minHold attribute of "
				+ "@DistributedLocked on InvalidLockOperationFailureAnalyzerTests.Orders.holdLongerThanTtl(): raise "
				+ "the ttl to at least minHold, set autoRenew = true, or shorten minHold.");
	}

	@Test
	void minHoldWithKeysIsFixedByRemovingItOrLockingOneKey() {
		assertThat(analyze("holdSeveral").getAction()).endsWith("holdSeveral(long, long): remove minHold, or lock "
				+ "one key with key instead of keys, as a minimum hold keeps one lock.");
	}

	@Test
	void minHoldThatIsNoDurationIsFixedWithTheDurationFormats() {
		assertThat(analyze("holdBriefly").getAction()).endsWith("holdBriefly(): use a duration of zero or more and at "
				+ "most 365d, as a number with a unit (500ms, 10s, 2m, 1h, 1d) or ISO-8601 (PT10S), or a ${...} "
				+ "placeholder that resolves to one.");
	}

	@Test
	void everyActionIsConcreteInsteadOfPointingBackAtTheDescription() {
		for (String method : new String[] { "transferWithKey", "transferFairly", "transferLater", "readReactively",
				"noPermits", "readPermits", "holdLongerThanTtl", "holdSeveral", "holdBriefly" }) {
			assertThat(analyze(method).getAction()).as(method).doesNotContain("description above");
		}
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

		@DistributedLocked(key = "#orderId", ttl = "10")
		public void confirm(long orderId) {
		}

		@DistributedLocked(key = "shipping")
		public final void ship() {
		}

		@DistributedLocked(key = "transfer", keys = { "#from", "#to" })
		public void transferWithKey(long from, long to) {
		}

		@DistributedLocked(keys = { "#from", "#to" }, fair = true)
		public void transferFairly(long from, long to) {
		}

		@DistributedLocked(keys = { "#from", "#to" })
		public CompletableFuture<Void> transferLater(long from, long to) {
			return CompletableFuture.completedFuture(null);
		}

		@DistributedLocked(key = "catalog", mode = LockMode.READ)
		public Mono<Void> readReactively() {
			return Mono.empty();
		}

		@DistributedLocked(key = "reports", permits = 0)
		public void noPermits() {
		}

		@DistributedLocked(key = "reports", permits = 3, mode = LockMode.READ)
		public void readPermits() {
		}

		@DistributedLocked(key = "hold", ttl = "1s", autoRenew = false, minHold = "5s")
		public void holdLongerThanTtl() {
		}

		@DistributedLocked(keys = { "#from", "#to" }, minHold = "1s")
		public void holdSeveral(long from, long to) {
		}

		@DistributedLocked(key = "hold", minHold = "a while")
		public void holdBriefly() {
		}

	}

}
