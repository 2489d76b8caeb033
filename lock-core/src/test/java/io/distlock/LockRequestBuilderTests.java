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

package io.distlock;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LockRequest.Builder}.
 */
class LockRequestBuilderTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@Test
	void givenOnlyTheKeyTtlAndWaitTimeThenTheRequestIsThatOfOf() {
		LockRequest request = LockRequest.builder("k").ttl(TTL).waitTime(Duration.ofSeconds(1)).build();

		assertThat(request).isEqualTo(LockRequest.of("k", TTL, Duration.ofSeconds(1)));
		assertThat(request.autoRenew()).isTrue();
	}

	@Test
	void givenNoOtherAttributesThenTheDefaultsAreThoseOfTheRemovedConstructors() {
		// What new LockRequest(key, ttl, waitTime, autoRenew) made.
		LockRequest request = LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).autoRenew(false).build();

		assertThat(request.fair()).isFalse();
		assertThat(request.name()).isEmpty();
		assertThat(request.mode()).isEqualTo(LockMode.EXCLUSIVE);
		assertThat(request.permits()).isEqualTo(1);
		assertThat(request.minHold()).isZero();
		assertThat(request).isEqualTo(
				new LockRequest("k", TTL, Duration.ZERO, false, false, "", LockMode.EXCLUSIVE, 1, Duration.ZERO));
	}

	@Test
	void givenEveryAttributeThenTheRequestHoldsThem() {
		LockRequest request = LockRequest.builder("report:1")
			.ttl(TTL)
			.waitTime(Duration.ofSeconds(2))
			.autoRenew(false)
			.fair(true)
			.name("reports")
			.mode(LockMode.WRITE)
			.minHold(Duration.ofSeconds(3))
			.build();

		assertThat(request).isEqualTo(new LockRequest("report:1", TTL, Duration.ofSeconds(2), false, true, "reports",
				LockMode.WRITE, 1, Duration.ofSeconds(3)));
		assertThat(LockRequest.builder("exports").ttl(TTL).waitTime(Duration.ZERO).permits(5).build().permits())
			.isEqualTo(5);
	}

	@Test
	void givenTheSameAttributesThenTheBuilderAndTheWithersMakeEqualRequests() {
		LockRequest built = LockRequest.builder("k")
			.ttl(TTL)
			.waitTime(Duration.ZERO)
			.name("jobs")
			.permits(3)
			.minHold(Duration.ofSeconds(1))
			.build();

		assertThat(built).isEqualTo(LockRequest.of("k", TTL, Duration.ZERO)
			.withName("jobs")
			.withPermits(3)
			.withMinHold(Duration.ofSeconds(1)));
	}

	@Test
	void givenAttributesThatConflictOnlyOnTheWayThenTheRequestIsValidatedOnceWhenBuilt() {
		// Withers would reject the fair read request in between.
		LockRequest request = LockRequest.builder("k")
			.ttl(TTL)
			.waitTime(Duration.ZERO)
			.fair(true)
			.mode(LockMode.READ)
			.fair(false)
			.build();

		assertThat(request.mode()).isEqualTo(LockMode.READ);
		assertThat(request.fair()).isFalse();
	}

	@Test
	void givenABuilderThenEachBuildMakesANewRequestFromTheAttributesSetSoFar() {
		LockRequest.Builder builder = LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO);
		LockRequest first = builder.build();
		LockRequest named = builder.name("n").build();

		assertThat(first.name()).isEmpty();
		assertThat(named.name()).isEqualTo("n");
	}

	@Test
	void givenNoTtlThenBuildFailsNamingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.builder("k").waitTime(Duration.ZERO).build())
			.withMessage("'ttl' must not be null");
	}

	@Test
	void givenNoWaitTimeThenBuildFailsNamingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.builder("k").ttl(TTL).build())
			.withMessage("'waitTime' must not be null");
	}

	@Test
	void givenAnInvalidKeyThenBuildFailsNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder(" ").ttl(TTL).waitTime(Duration.ZERO).build())
			.withMessage("'key' must not be blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k".repeat(1025)).ttl(TTL).waitTime(Duration.ZERO).build())
			.withMessageStartingWith("'key' must be at most 1024 bytes in UTF-8 but was 1025 bytes");
	}

	@Test
	void givenAnInvalidTtlOrWaitTimeThenBuildFailsNamingTheAttributeAndTheValue() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k").ttl(Duration.ofDays(366)).waitTime(Duration.ZERO).build())
			.withMessage("'ttl' must be at most 365 days but was PT8784H");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k").ttl(Duration.ZERO).waitTime(Duration.ZERO).build())
			.withMessage("'ttl' must be at least 1ms but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ofSeconds(-1)).build())
			.withMessage("'waitTime' must not be negative but was PT-1S");
	}

	@Test
	void givenInvalidPermitsThenBuildFailsNamingTheAttributeAndTheValue() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).permits(0).build())
			.withMessage("'permits' must be at least 1 but was 0");
		assertThatIllegalArgumentException().isThrownBy(
				() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).permits(2).mode(LockMode.READ).build())
			.withMessageStartingWith("'permits' = 2 cannot be combined with mode READ");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).permits(2).fair(true).build())
			.withMessageStartingWith("'permits' = 2 cannot be combined with fair");
	}

	@Test
	void givenAFairReadRequestThenBuildFails() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).fair(true).mode(LockMode.READ).build())
			.withMessageContaining("A READ lock cannot be fair");
	}

	@Test
	void givenAnInvalidMinHoldThenBuildFailsNamingTheAttributeAndTheValue() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).minHold(Duration.ofMillis(-1)).build())
			.withMessage("'minHold' must not be negative but was PT-0.001S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k")
				.ttl(TTL)
				.waitTime(Duration.ZERO)
				.autoRenew(false)
				.minHold(Duration.ofSeconds(11))
				.build())
			.withMessageStartingWith("'minHold' (PT11S) must not be longer than 'ttl' (PT10S) without auto-renew");
	}

	@Test
	void givenAnInvalidNameThenBuildFailsNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.builder("k").ttl(TTL).waitTime(Duration.ZERO).name("n".repeat(101)).build())
			.withMessageStartingWith("'name' must be at most 100 characters");
	}

}
