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

package io.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.MultiLockRequest;
import io.distlock.annotation.LockFailurePolicy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LockOperation} and its builder.
 */
class LockOperationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private final KeyExpressionParser parser = new KeyExpressionParser(null);

	@Test
	void givenOnlyTheRequiredAttributesThenTheDefaultsAreThoseOfTheRemovedConstructors() {
		LockOperation operation = minimal().build();

		assertThat(operation.name()).isEmpty();
		assertThat(operation.multiKey()).isFalse();
		assertThat(operation.mode()).isEqualTo(LockMode.EXCLUSIVE);
		assertThat(operation.permits()).isEqualTo(1);
		assertThat(operation.minHold()).isZero();
		assertThat(operation.autoRenew()).isTrue();
		assertThat(operation.fair()).isFalse();
		assertThat(operation.onFailure()).isEqualTo(LockFailurePolicy.THROW);
		assertThat(operation.fallback()).isNull();
		assertThat(operation.async()).isFalse();
		assertThat(operation.reactive()).isFalse();
		assertThat(operation.lockName()).isEqualTo("Orders.pay");
	}

	@Test
	void givenNoKeyTtlWaitTimeOrLockNameThenBuildFailsNamingIt() {
		Method method = method();
		KeyExpression key = this.parser.parse("#id", "", method);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockOperationBuilder(method).ttl(TTL).waitTime(Duration.ZERO).lockName("n").build())
			.withMessage("'key' must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockOperationBuilder(method).key(key).waitTime(Duration.ZERO).lockName("n").build())
			.withMessage("'ttl' must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockOperationBuilder(method).key(key).ttl(TTL).lockName("n").build())
			.withMessage("'waitTime' must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockOperationBuilder(method).key(key).ttl(TTL).waitTime(Duration.ZERO).build())
			.withMessage("'lockName' must not be null");
	}

	@Test
	void givenAnOperationThenItsRequestHasEverySettingAndTheLockNameAsName() {
		LockOperation operation = minimal().name("orders")
			.autoRenew(false)
			.fair(true)
			.mode(LockMode.WRITE)
			.minHold(Duration.ofSeconds(3))
			.lockName("orders")
			.build();

		assertThat(operation.toRequest("orders:1")).isEqualTo(new LockRequest("orders:1", TTL, Duration.ofSeconds(2),
				false, true, "orders", LockMode.WRITE, 1, Duration.ofSeconds(3)));
		assertThat(minimal().permits(4).build().toRequest("1"))
			.isEqualTo(LockRequest.of("1", TTL, Duration.ofSeconds(2)).withName("Orders.pay").withPermits(4));
	}

	@Test
	void givenAnInvalidLockKeyThenTheRequestIsRejectedNamingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> minimal().build().toRequest(" "))
			.withMessage("'key' must not be blank");
	}

	@Test
	void givenAMultiKeyOperationThenItsRequestHasItsSettings() {
		LockOperation operation = minimal().keys(List.of(this.parser.parse("#id", "", method(), "keys")))
			.mode(LockMode.READ)
			.autoRenew(false)
			.build();

		assertThat(operation.multiKey()).isTrue();
		assertThat(operation.toMultiLockRequest(List.of("b", "a")))
			.isEqualTo(MultiLockRequest.of(List.of("a", "b"), TTL, Duration.ofSeconds(2))
				.withAutoRenew(false)
				.withMode(LockMode.READ)
				.withName("Orders.pay"));
	}

	private LockOperationBuilder minimal() {
		Method method = method();
		return new LockOperationBuilder(method).key(this.parser.parse("#id", "", method))
			.ttl(TTL)
			.waitTime(Duration.ofSeconds(2))
			.lockName("Orders.pay");
	}

	private static Method method() {
		return KeyExpressionParserTests.method(Orders.class, "pay");
	}

	static class Orders {

		public void pay(long id) {
		}

	}

}
