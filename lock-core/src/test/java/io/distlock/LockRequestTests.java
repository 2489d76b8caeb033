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
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LockRequest} validation.
 */
class LockRequestTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@Test
	void nullKeyIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of(null, TTL, Duration.ZERO))
			.withMessage("'key' must not be null");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t\n" })
	void blankKeyIsRejected(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of(key, TTL, Duration.ZERO))
			.withMessage("'key' must not be blank");
	}

	@Test
	void keyOverOneKibibyteIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("k".repeat(1025), TTL, Duration.ZERO))
			.withMessageStartingWith("'key' must be at most 1024 bytes in UTF-8 but was 1025 bytes");
	}

	@Test
	void keyLimitCountsUtf8Bytes() {
		String key = "ж".repeat(513);
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of(key, TTL, Duration.ZERO))
			.withMessageContaining("but was 1026 bytes");
	}

	@ParameterizedTest
	@ValueSource(strings = { "order:42", "{braces}", "a b c", "ключ 🔒", "*?[glob]", "\u00a0nbsp" })
	void anyOtherStringIsAValidKey(String key) {
		assertThat(LockRequest.of(key, TTL, Duration.ZERO).key()).isEqualTo(key);
	}

	@ParameterizedTest
	@ValueSource(strings = { "line\nbreak", "tab\t", "\u0000", "unit\u001fseparator", "\u007f", "\u0085" })
	void keyWithAControlCharacterIsRejected(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of(key, TTL, Duration.ZERO))
			.withMessageStartingWith("'key' must not contain control characters but was '")
			.withMessageNotContaining(key);
	}

	@Test
	void keyWithAControlCharacterIsNamedWithTheCharacterEscaped() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("order:4\n2", TTL, Duration.ZERO))
			.withMessage("'key' must not contain control characters but was 'order:4\\u000a2'");
	}

	@Test
	void keyOfExactlyOneKibibyteIsAccepted() {
		assertThat(LockRequest.of("k".repeat(1024), TTL, Duration.ZERO).key()).hasSize(1024);
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, -1, -10_000 })
	void ttlBelowOneMillisecondIsRejected(long millis) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.of("k", Duration.ofMillis(millis), Duration.ZERO))
			.withMessageStartingWith("'ttl' must be at least 1ms but was");
	}

	@ParameterizedTest
	@ValueSource(longs = { 366, 1_000_000, 300_000_000, Long.MAX_VALUE / 86_400 })
	void ttlAboveTheMaximumIsRejectedNamingTheBound(long days) {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("k", Duration.ofDays(days), Duration.ZERO))
			.withMessageStartingWith("'ttl' must be at most 365 days but was PT");
	}

	@Test
	void ttlOfTheMaximumIsAccepted() {
		assertThat(LockRequest.of("k", LockRequest.MAX_TTL, Duration.ZERO).ttl()).isEqualTo(Duration.ofDays(365));
	}

	@Test
	void waitTimeOfAnyLengthIsAccepted() {
		Duration forever = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
		assertThat(LockRequest.of("k", TTL, forever).waitTime()).isEqualTo(forever);
	}

	@Test
	void nullTtlIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("k", null, Duration.ZERO))
			.withMessage("'ttl' must not be null");
	}

	@Test
	void negativeWaitTimeIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("k", TTL, Duration.ofMillis(-1)))
			.withMessage("'waitTime' must not be negative but was PT-0.001S");
	}

	@Test
	void nullWaitTimeIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.of("k", TTL, null))
			.withMessage("'waitTime' must not be null");
	}

	@Test
	void locksAreRenewedUnlessSaidOtherwise() {
		LockRequest request = LockRequest.of("k", TTL, Duration.ZERO);
		assertThat(request.autoRenew()).isTrue();
		assertThat(request.withAutoRenew(false).autoRenew()).isFalse();
	}

	@Test
	void locksAreNotFairUnlessSaidOtherwise() {
		LockRequest request = LockRequest.of("k", TTL, Duration.ZERO);
		assertThat(request.fair()).isFalse();
		assertThat(request.withFair(true).fair()).isTrue();
		assertThat(LockRequest.of("k", TTL, Duration.ZERO).withAutoRenew(false).fair()).isFalse();
	}

	@Test
	void withersKeepTheOtherSettings() {
		LockRequest request = LockRequest.of("k", TTL, Duration.ofSeconds(1)).withFair(true).withAutoRenew(false);
		assertThat(request).isEqualTo(new LockRequest("k", TTL, Duration.ofSeconds(1), false, true, "",
				LockMode.EXCLUSIVE, 1, Duration.ZERO));
		assertThat(request.withFair(false)).isEqualTo(new LockRequest("k", TTL, Duration.ofSeconds(1), false, false, "",
				LockMode.EXCLUSIVE, 1, Duration.ZERO));
	}

	@Test
	void givenAPlainRequestThenItIsExclusiveWithOnePermit() {
		LockRequest request = LockRequest.of("k", TTL, Duration.ZERO);

		assertThat(request.mode()).isEqualTo(LockMode.EXCLUSIVE);
		assertThat(request.permits()).isEqualTo(1);
	}

	@Test
	void givenModeAndPermitsThenCopiesKeepTheOtherSettings() {
		LockRequest request = LockRequest.of("k", TTL, Duration.ZERO).withName("reports").withMode(LockMode.READ);

		assertThat(request.withAutoRenew(false).mode()).isEqualTo(LockMode.READ);
		assertThat(request.withName("other").mode()).isEqualTo(LockMode.READ);
		assertThat(LockRequest.of("k", TTL, Duration.ZERO).withPermits(5).withName("exports").permits()).isEqualTo(5);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -3 })
	void givenPermitsBelowOneThenTheRequestIsRejected(int permits) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.of("k", TTL, Duration.ZERO).withPermits(permits))
			.withMessage("'permits' must be at least 1 but was " + permits);
	}

	@Test
	void givenPermitsWithReadWriteOrFairThenTheRequestIsRejected() {
		LockRequest permits = LockRequest.of("k", TTL, Duration.ZERO).withPermits(2);

		assertThatIllegalArgumentException().isThrownBy(() -> permits.withMode(LockMode.READ))
			.withMessageContaining("'permits' = 2 cannot be combined with mode READ");
		assertThatIllegalArgumentException().isThrownBy(() -> permits.withMode(LockMode.WRITE))
			.withMessageContaining("'permits' = 2 cannot be combined with mode WRITE");
		assertThatIllegalArgumentException().isThrownBy(() -> permits.withFair(true))
			.withMessageContaining("'permits' = 2 cannot be combined with fair");
	}

	@Test
	void givenAFairReadRequestThenItIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.of("k", TTL, Duration.ZERO).withFair(true).withMode(LockMode.READ))
			.withMessageContaining("A READ lock cannot be fair");
		assertThat(LockRequest.of("k", TTL, Duration.ZERO).withFair(true).withMode(LockMode.WRITE).fair()).isTrue();
	}

	@Test
	void givenKeysInAnyOrderThenAMultiLockRequestHoldsThemSortedWithoutDuplicates() {
		MultiLockRequest request = MultiLockRequest.of(List.of("b", "a", "c", "a"), TTL, Duration.ZERO);

		assertThat(request.keys()).containsExactly("a", "b", "c");
		assertThat(request.requestFor("b")).isEqualTo(LockRequest.of("b", TTL, Duration.ZERO));
		assertThat(request.withMode(LockMode.READ).withName("n").requestFor("a"))
			.isEqualTo(LockRequest.of("a", TTL, Duration.ZERO).withMode(LockMode.READ).withName("n"));
	}

	@Test
	void givenNoKeysOrAnInvalidKeyThenAMultiLockRequestIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> MultiLockRequest.of(List.of(), TTL, Duration.ZERO))
			.withMessage("'keys' must not be empty");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MultiLockRequest.of(List.of("a", " "), TTL, Duration.ZERO))
			.withMessage("'key' must not be blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MultiLockRequest.of(List.of("a"), Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'ttl' must be at least 1ms");
	}

	@Test
	void givenMoreThanTheMostKeysThenAMultiLockRequestIsRejected() {
		List<String> keys = IntStream.rangeClosed(0, MultiLockRequest.MAX_KEYS).mapToObj(Integer::toString).toList();

		assertThatIllegalArgumentException().isThrownBy(() -> MultiLockRequest.of(keys, TTL, Duration.ZERO))
			.withMessage("'keys' must hold at most 1000 distinct keys but held 1001");
	}

	@Test
	void givenAMinHoldThenCopiesKeepIt() {
		LockRequest request = LockRequest.of("k", TTL, Duration.ZERO).withMinHold(Duration.ofSeconds(5));

		assertThat(request.minHold()).isEqualTo(Duration.ofSeconds(5));
		assertThat(request.withName("job").withPermits(2).minHold()).isEqualTo(Duration.ofSeconds(5));
		assertThat(LockRequest.of("k", TTL, Duration.ZERO).minHold()).isZero();
	}

	@Test
	void givenAMinHoldLongerThanAFixedLeaseThenTheRequestIsRejected() {
		LockRequest fixed = LockRequest.of("k", TTL, Duration.ZERO).withAutoRenew(false);

		assertThatIllegalArgumentException().isThrownBy(() -> fixed.withMinHold(Duration.ofSeconds(11)))
			.withMessageContaining("'minHold' (PT11S) must not be longer than 'ttl' (PT10S) without auto-renew");
		assertThat(fixed.withMinHold(TTL).minHold()).isEqualTo(TTL);
		assertThat(LockRequest.of("k", TTL, Duration.ZERO).withMinHold(Duration.ofMinutes(1)).minHold())
			.isEqualTo(Duration.ofMinutes(1));
	}

	@Test
	void givenANegativeMinHoldThenTheRequestIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockRequest.of("k", TTL, Duration.ZERO).withMinHold(Duration.ofMillis(-1)))
			.withMessage("'minHold' must not be negative but was PT-0.001S");
	}

}
