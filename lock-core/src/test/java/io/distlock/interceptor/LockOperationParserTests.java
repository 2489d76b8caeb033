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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.distlock.LockMode;
import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.support.PropertySourcesPlaceholderConfigurer;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LockOperationParser}.
 */
class LockOperationParserTests {

	private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

	private static final Duration DEFAULT_WAIT_TIME = Duration.ofMillis(250);

	private final LockOperationParser parser = new LockOperationParser(new KeyExpressionParser(null), null, DEFAULT_TTL,
			DEFAULT_WAIT_TIME);

	@Test
	void attributesAreCarriedOver() {
		LockOperation operation = parse(
				Map.of("key", "#orderId", "name", "orders", "ttl", "10s", "waitTime", "2s", "autoRenew", false), "pay");

		assertThat(operation.method()).isEqualTo(method("pay"));
		assertThat(operation.name()).isEqualTo("orders");
		assertThat(operation.key()).isEqualTo(new KeyExpression.Argument(0, "#orderId"));
		assertThat(operation.ttl()).isEqualTo(Duration.ofSeconds(10));
		assertThat(operation.waitTime()).isEqualTo(Duration.ofSeconds(2));
		assertThat(operation.autoRenew()).isFalse();
		assertThat(operation.onFailure()).isEqualTo(LockFailurePolicy.THROW);
		assertThat(operation.fallback()).isNull();
	}

	@Test
	void emptyTtlAndWaitTimeUseDefaults() {
		LockOperation operation = parse(Map.of(), "pay");

		assertThat(operation.ttl()).isEqualTo(DEFAULT_TTL);
		assertThat(operation.waitTime()).isEqualTo(DEFAULT_WAIT_TIME);
		assertThat(operation.autoRenew()).isTrue();
	}

	@Test
	void nameIsPutBeforeTheEvaluatedKey() {
		LockOperation operation = parse(Map.of("key", "#orderId", "name", "orders"), "pay");

		assertThat(operation.lockKey("42")).isEqualTo("orders:42");
	}

	@Test
	void keyWithoutNameIsTheLockKeyAsItIs() {
		LockOperation operation = parse(Map.of("key", "#orderId"), "pay");

		assertThat(operation.lockKey("42")).isEqualTo("42");
	}

	@Test
	void nameWithoutKeyIsTheWholeLockKey() {
		LockOperation operation = parse(Map.of("name", "orders"), "pay");

		assertThat(operation.name()).isEmpty();
		assertThat(operation.key()).isEqualTo(new KeyExpression.Literal("orders", ""));
		assertThat(operation.lockKey("orders")).isEqualTo("orders");
	}

	@Test
	void noKeyAndNoNameLocksClassNameDotMethodName() {
		LockOperation operation = parse(Map.of(), "pay");

		assertThat(operation.lockKey(((KeyExpression.Literal) operation.key()).value()))
			.isEqualTo(Orders.class.getName() + ".pay");
	}

	@ParameterizedTest
	@CsvSource({ "10s, PT10S", "500ms, PT0.5S", "2m, PT2M", "1h, PT1H", "1d, PT24H", "PT10S, PT10S", "pt1m, PT1M",
			"' 10s ', PT10S", "600000us, PT0.6S" })
	void ttlFormats(String ttl, Duration expected) {
		assertThat(parse(Map.of("ttl", ttl), "pay").ttl()).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource({ "0s, PT0S", "0ms, PT0S", "500ms, PT0.5S", "2m, PT2M", "1d, PT24H", "PT10S, PT10S" })
	void waitTimeFormats(String waitTime, Duration expected) {
		assertThat(parse(Map.of("waitTime", waitTime), "pay").waitTime()).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "10 s", "1.5s", "10sec", "s", "PT", "10x" })
	void ttlThatIsNotADurationFailsNamingMethodAndAttribute(String ttl) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", ttl), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '" + ttl + "' is not a valid duration");
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "10 s", "1.5s" })
	void waitTimeThatIsNotADurationFailsNamingMethodAndAttribute(String waitTime) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("waitTime", waitTime), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("waitTime '" + waitTime + "' is not a valid duration");
	}

	@ParameterizedTest
	@ValueSource(strings = { "-5s", "-PT1S" })
	void negativeTtlFailsNamingMethodAndAttribute(String ttl) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", ttl), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '" + ttl + "' must not be negative");
	}

	@Test
	void negativeWaitTimeFailsNamingMethodAndAttribute() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("waitTime", "-5s"), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("waitTime '-5s' must not be negative");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "0ms", "PT0S", "999us" })
	void ttlBelowOneMillisecondFailsNamingMethodAndAttribute(String ttl) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", ttl), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '" + ttl + "' must be at least 1ms");
	}

	@Test
	void blankTtlFailsNamingMethodAndAttribute() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", " "), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl ' ' is empty");
	}

	@Test
	void durationTooLongForMillisecondsFailsNamingMethodAndAttribute() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", "9223372036854775807s"), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '9223372036854775807s' is too long");
	}

	@ParameterizedTest
	@ValueSource(strings = { "366d", "300000000d", "P366D", "9000h" })
	void ttlAboveTheMaximumFailsNamingMethodAttributeAndBound(String ttl) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", ttl), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '" + ttl + "' is too long; it must be at most 365d");
	}

	@Test
	void ttlOfTheMaximumIsAccepted() {
		assertThat(parse(Map.of("ttl", "365d"), "pay").ttl()).isEqualTo(Duration.ofDays(365));
	}

	@Test
	void ttlPlaceholderAboveTheMaximumFailsShowingBothValues() {
		LockOperationParser parser = parserWithProperties("orders.lock-ttl", "400d");
		assertThatIllegalStateException()
			.isThrownBy(() -> parser.parse(locked(Map.of("ttl", "${orders.lock-ttl}")), method("pay"), Orders.class))
			.withMessageContaining("ttl '${orders.lock-ttl}' (resolved to '400d') is too long");
	}

	@ParameterizedTest
	@ValueSource(strings = { "36500d", "9223372036854775807ms" })
	void waitTimeOfManyYearsIsAccepted(String waitTime) {
		assertThat(parse(Map.of("waitTime", waitTime), "pay").waitTime()).isGreaterThan(Duration.ofDays(365));
	}

	@Test
	void ttlPlaceholderIsResolved() {
		LockOperationParser parser = parserWithProperties("orders.lock-ttl", "45s");

		assertThat(parser.parse(locked(Map.of("ttl", "${orders.lock-ttl}")), method("pay"), Orders.class).ttl())
			.isEqualTo(Duration.ofSeconds(45));
	}

	@Test
	void waitTimePlaceholderIsResolved() {
		LockOperationParser parser = parserWithProperties("orders.lock-wait", "PT2S");

		assertThat(
				parser.parse(locked(Map.of("waitTime", "${orders.lock-wait}")), method("pay"), Orders.class).waitTime())
			.isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void placeholderDefaultValueIsUsed() {
		LockOperationParser parser = parserWithProperties("unrelated", "x");

		assertThat(parser.parse(locked(Map.of("ttl", "${orders.lock-ttl:1m}")), method("pay"), Orders.class).ttl())
			.isEqualTo(Duration.ofMinutes(1));
	}

	@Test
	void placeholderResolvingToGarbageFailsShowingBothValues() {
		LockOperationParser parser = parserWithProperties("orders.lock-ttl", "soon");

		assertThatIllegalStateException()
			.isThrownBy(() -> parser.parse(locked(Map.of("ttl", "${orders.lock-ttl}")), method("pay"), Orders.class))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '${orders.lock-ttl}' (resolved to 'soon') is not a valid duration");
	}

	@Test
	void placeholderResolvingToEmptyFailsNamingMethodAndAttribute() {
		LockOperationParser parser = parserWithProperties("orders.lock-ttl", "");

		assertThatIllegalStateException()
			.isThrownBy(() -> parser.parse(locked(Map.of("ttl", "${orders.lock-ttl}")), method("pay"), Orders.class))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '${orders.lock-ttl}' (resolved to '') is empty");
	}

	@Test
	void unresolvablePlaceholderFailsNamingMethodAndAttribute() {
		LockOperationParser parser = parserWithProperties("unrelated", "x");

		assertThatIllegalStateException()
			.isThrownBy(
					() -> parser.parse(locked(Map.of("waitTime", "${orders.lock-wait}")), method("pay"), Orders.class))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("waitTime '${orders.lock-wait}' could not be resolved")
			.withMessageContaining("orders.lock-wait");
	}

	@Test
	void placeholderWithoutResolverIsNotADuration() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("ttl", "${orders.lock-ttl}"), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("ttl '${orders.lock-ttl}' is not a valid duration");
	}

	@Test
	void fallbackMethodImpliesFallbackPolicy() {
		LockOperation operation = parse(Map.of("fallbackMethod", "findFallback"), "find");

		assertThat(operation.onFailure()).isEqualTo(LockFailurePolicy.FALLBACK);
		assertThat(operation.fallback()).isEqualTo(method("findFallback"));
	}

	@Test
	void fallbackMethodWithFallbackPolicyIsAccepted() {
		LockOperation operation = parse(
				Map.of("fallbackMethod", "findFallback", "onFailure", LockFailurePolicy.FALLBACK), "find");

		assertThat(operation.onFailure()).isEqualTo(LockFailurePolicy.FALLBACK);
	}

	@Test
	void privateFallbackMethodIsAccepted() {
		LockOperation operation = parse(Map.of("fallbackMethod", "countFallback"), "count");

		assertThat(operation.fallback()).isEqualTo(method("countFallback"));
	}

	@Test
	void fallbackMethodOnSuperclassIsFound() {
		LockOperation operation = new LockOperationParser(new KeyExpressionParser(null), null, DEFAULT_TTL,
				DEFAULT_WAIT_TIME)
			.parse(locked(Map.of("fallbackMethod", "payFallback")), method("pay"), SpecialOrders.class);

		assertThat(operation.fallback()).isEqualTo(method("payFallback"));
	}

	@Test
	void fallbackMethodReturningSubtypeIsAccepted() {
		LockOperation operation = parse(Map.of("fallbackMethod", "describeFallback"), "describe");

		assertThat(operation.fallback()).isEqualTo(method("describeFallback"));
	}

	@Test
	void voidMethodAcceptsFallbackReturningAnything() {
		LockOperation operation = parse(Map.of("fallbackMethod", "count"), "pay");

		assertThat(operation.fallback()).isEqualTo(method("count"));
	}

	@Test
	void missingFallbackMethodFailsNamingMethodAndFallback() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("fallbackMethod", "nosuch"), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("fallbackMethod 'nosuch' does not exist on " + Orders.class.getName());
	}

	@Test
	void fallbackMethodWithOtherParameterTypesIsMissing() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("fallbackMethod", "payFallback"), "payByReference"))
			.withMessageContaining(methodName("payByReference"))
			.withMessageContaining("fallbackMethod 'payFallback' does not exist");
	}

	@Test
	void fallbackMethodWithWrongReturnTypeFailsNamingBothTypes() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("fallbackMethod", "describe"), "find"))
			.withMessageContaining(methodName("find"))
			.withMessageContaining("fallbackMethod 'describe' returns java.lang.CharSequence, which is not "
					+ "assignable to java.util.Optional");
	}

	@Test
	void fallbackMethodReturningVoidForValueMethodFails() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("fallbackMethod", "pay"), "count"))
			.withMessageContaining(methodName("count"))
			.withMessageContaining("fallbackMethod 'pay' returns void");
	}

	@Test
	void fallbackMethodThatIsTheMethodItselfFails() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("fallbackMethod", "pay"), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("fallbackMethod 'pay' is the annotated method itself");
	}

	@Test
	void fallbackMethodWithSkipFailsNamingMethodAndFallback() {
		assertThatIllegalStateException()
			.isThrownBy(
					() -> parse(Map.of("fallbackMethod", "findFallback", "onFailure", LockFailurePolicy.SKIP), "find"))
			.withMessageContaining(methodName("find"))
			.withMessageContaining("fallbackMethod 'findFallback' cannot be combined with onFailure = SKIP");
	}

	@Test
	void fallbackPolicyWithoutFallbackMethodFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("onFailure", LockFailurePolicy.FALLBACK), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("onFailure = FALLBACK needs a fallbackMethod");
	}

	@Test
	void skipOnMethodReturningPrimitiveFails() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("onFailure", LockFailurePolicy.SKIP), "count"))
			.withMessageContaining(methodName("count"))
			.withMessageContaining("onFailure = SKIP cannot skip a method returning int");
	}

	@ParameterizedTest
	@ValueSource(strings = { "pay", "find", "describe", "boxed" })
	void skipOnMethodReturningVoidOrObjectIsAccepted(String method) {
		assertThat(parse(Map.of("onFailure", LockFailurePolicy.SKIP), method).onFailure())
			.isEqualTo(LockFailurePolicy.SKIP);
	}

	@Test
	void badKeyFailsBeforeOtherAttributesAreLookedAt() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("key", "#nosuchparam", "ttl", "abc"), "pay"))
			.withMessageContaining("#nosuchparam");
	}

	@ParameterizedTest
	@CsvSource({ "pay, BLOCKING", "payLater, STAGE", "payStage, STAGE", "reserve, MONO", "reserveAll, FLUX",
			"publish, FLUX" })
	void returnTypeDecidesHowLongTheLockIsHeld(String methodName, MethodShape shape) {
		LockOperation operation = parse(Map.of(), methodName);

		assertThat(operation.shape()).isEqualTo(shape);
		assertThat(operation.async()).isEqualTo(shape == MethodShape.STAGE);
		assertThat(operation.reactive()).isEqualTo(shape == MethodShape.MONO || shape == MethodShape.FLUX);
	}

	@Test
	void fairOnAMonoMethodIsRefused() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("fair", true), "reserve"))
			.withMessageContaining(methodName("reserve"))
			.withMessageContaining("fair = true is not available on a reactive or suspend method");
	}

	@Test
	void givenKeysWhenParsedThenEachElementIsAKeyExpressionUnderTheName() {
		LockOperation operation = parse(Map.of("keys", new String[] { "#from", "#to" }, "name", "accounts"),
				"transfer");

		assertThat(operation.multiKey()).isTrue();
		assertThat(operation.keys()).containsExactly(new KeyExpression.Argument(0, "#from"),
				new KeyExpression.Argument(1, "#to"));
		assertThat(operation.lockKey("1")).isEqualTo("accounts:1");
	}

	@Test
	void givenNoKeysWhenParsedThenTheOperationLocksOneKeyExclusively() {
		LockOperation operation = parse(Map.of("key", "#orderId"), "pay");

		assertThat(operation.multiKey()).isFalse();
		assertThat(operation.mode()).isEqualTo(LockMode.EXCLUSIVE);
		assertThat(operation.permits()).isEqualTo(1);
	}

	@Test
	void givenKeyAndKeysWhenParsedThenStartupFailsNamingBoth() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("key", "#from", "keys", new String[] { "#to" }), "transfer"))
			.withMessageContaining(methodName("transfer"))
			.withMessageContaining("keys")
			.withMessageContaining("key '#from' and keys [#to] cannot be combined");
	}

	@Test
	void givenAnEmptyKeysElementWhenParsedThenStartupFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("keys", new String[] { "#from", "" }), "transfer"))
			.withMessageContaining(methodName("transfer"))
			.withMessageContaining("keys element 1 of [#from, ] is empty");
	}

	@Test
	void givenAKeysElementNamingAnUnknownParameterWhenParsedThenStartupFailsNamingKeys() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("keys", new String[] { "#from", "#other" }), "transfer"))
			.withMessageContaining(methodName("transfer"))
			.withMessageContaining("keys '#other' refers to #other, but the method has no such parameter");
	}

	@ParameterizedTest
	@CsvSource({ "READ", "WRITE", "EXCLUSIVE" })
	void givenAModeWhenParsedThenItIsCarriedOver(LockMode mode) {
		assertThat(parse(Map.of("key", "#orderId", "mode", mode), "pay").mode()).isEqualTo(mode);
	}

	@Test
	void givenPermitsWhenParsedThenTheyAreCarriedOver() {
		assertThat(parse(Map.of("key", "'exports'", "permits", 5), "pay").permits()).isEqualTo(5);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1 })
	void givenPermitsBelowOneWhenParsedThenStartupFails(int permits) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("permits", permits), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("permits = " + permits + " must be at least 1");
	}

	@ParameterizedTest
	@CsvSource({ "READ", "WRITE" })
	void givenPermitsWithAReadOrWriteModeWhenParsedThenStartupFails(LockMode mode) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("permits", 3, "mode", mode), "pay"))
			.withMessageContaining(methodName("pay"))
			.withMessageContaining("permits = 3 cannot be combined with mode = " + mode);
	}

	@Test
	void givenPermitsWithFairWhenParsedThenStartupFails() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("permits", 3, "fair", true), "pay"))
			.withMessageContaining("permits = 3 cannot be combined with fair = true");
	}

	@Test
	void givenReadWithFairWhenParsedThenStartupFails() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("mode", LockMode.READ, "fair", true), "pay"))
			.withMessageContaining("fair = true cannot be combined with mode = READ");
	}

	@Test
	void givenWriteWithFairWhenParsedThenItIsAFairWriteLock() {
		LockOperation operation = parse(Map.of("mode", LockMode.WRITE, "fair", true), "pay");

		assertThat(operation.fair()).isTrue();
		assertThat(operation.mode()).isEqualTo(LockMode.WRITE);
	}

	@Test
	void givenKeysWithFairOrPermitsWhenParsedThenStartupFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("keys", new String[] { "#from", "#to" }, "fair", true), "transfer"))
			.withMessageContaining("keys cannot be combined with fair = true");
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("keys", new String[] { "#from", "#to" }, "permits", 2), "transfer"))
			.withMessageContaining("keys cannot be combined with permits = 2");
	}

	@ParameterizedTest
	@ValueSource(strings = { "payLater", "payStage", "reserve", "reserveAll" })
	void givenKeysOnAnAsyncOrReactiveMethodWhenParsedThenStartupFails(String methodName) {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("keys", new String[] { "'a'", "'b'" }), methodName))
			.withMessageContaining(methodName(methodName))
			.withMessageContaining("keys is not available on a method returning");
	}

	@ParameterizedTest
	@ValueSource(strings = { "reserve", "reserveAll" })
	void givenReadOrPermitsOnAReactiveMethodWhenParsedThenStartupFails(String methodName) {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("mode", LockMode.READ), methodName))
			.withMessageContaining("mode = READ is not available on a reactive or suspend method");
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("permits", 2), methodName))
			.withMessageContaining("permits = 2 is not available on a reactive or suspend method");
	}

	@Test
	void givenReadOrPermitsOnACompletableFutureMethodWhenParsedThenTheyAreAccepted() {
		assertThat(parse(Map.of("mode", LockMode.READ), "payLater").mode()).isEqualTo(LockMode.READ);
		assertThat(parse(Map.of("permits", 2), "payLater").permits()).isEqualTo(2);
	}

	@Test
	void givenNoFailurePolicyOnAScheduledMethodThenABusyLockSkipsTheRun() {
		assertThat(parse(Map.of(), "nightly").onFailure()).isEqualTo(LockFailurePolicy.SKIP);
	}

	@Test
	void givenAnExplicitFailurePolicyOnAScheduledMethodThenItWins() {
		assertThat(parse(Map.of("onFailure", LockFailurePolicy.THROW), "nightly").onFailure())
			.isEqualTo(LockFailurePolicy.THROW);
		assertThat(parse(Map.of("fallbackMethod", "nightlyFallback"), "nightly").onFailure())
			.isEqualTo(LockFailurePolicy.FALLBACK);
	}

	@Test
	void givenNoFailurePolicyOnAnOrdinaryMethodThenABusyLockThrows() {
		assertThat(parse(Map.of(), "pay").onFailure()).isEqualTo(LockFailurePolicy.THROW);
	}

	@Test
	void givenAMinHoldThenItIsCarriedOverAndNoneByDefault() {
		assertThat(parse(Map.of("minHold", "5s"), "nightly").minHold()).isEqualTo(Duration.ofSeconds(5));
		assertThat(parse(Map.of(), "nightly").minHold()).isZero();
	}

	@Test
	void givenAMinHoldLongerThanAFixedLeaseThenStartupFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("minHold", "20s", "ttl", "10s", "autoRenew", false), "nightly"))
			.withMessageContaining(methodName("nightly"))
			.withMessageContaining("minHold '20s' is longer than the ttl of 10000ms without autoRenew");
	}

	@Test
	void givenAMinHoldLongerThanARenewedLeaseThenItIsAccepted() {
		assertThat(parse(Map.of("minHold", "20s", "ttl", "10s"), "nightly").minHold())
			.isEqualTo(Duration.ofSeconds(20));
	}

	@Test
	void givenAnInvalidMinHoldThenStartupFailsNamingIt() {
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("minHold", "soon"), "nightly"))
			.withMessageContaining("minHold 'soon' is not a valid duration");
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("minHold", "-1s"), "nightly"))
			.withMessageContaining("minHold '-1s' must not be negative");
	}

	@Test
	void givenAMinHoldWithKeysOrOnAReactiveMethodThenStartupFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> parse(Map.of("minHold", "1s", "keys", new String[] { "#from", "#to" }), "transfer"))
			.withMessageContaining("minHold '1s' cannot be combined with keys");
		assertThatIllegalStateException().isThrownBy(() -> parse(Map.of("minHold", "1s"), "reserve"))
			.withMessageContaining("minHold '1s' is not available on a reactive or suspend method");
	}

	private LockOperation parse(Map<String, Object> attributes, String methodName) {
		return this.parser.parse(locked(attributes), method(methodName), Orders.class);
	}

	private static LockOperationParser parserWithProperties(String name, String value) {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		PropertySourcesPlaceholderConfigurer placeholders = new PropertySourcesPlaceholderConfigurer();
		placeholders.setEnvironment(new MockEnvironment().withProperty(name, value));
		placeholders.postProcessBeanFactory(beanFactory);
		return new LockOperationParser(new KeyExpressionParser(beanFactory), new EmbeddedValueResolver(beanFactory),
				DEFAULT_TTL, DEFAULT_WAIT_TIME);
	}

	private static DistributedLocked locked(Map<String, Object> attributes) {
		return MergedAnnotation.of(DistributedLocked.class, attributes).synthesize();
	}

	private static Method method(String name) {
		return KeyExpressionParserTests.method(Orders.class, name);
	}

	private static String methodName(String name) {
		return KeyExpressionParserTests.methodName(Orders.class, name);
	}

	static class Orders {

		public void pay(long orderId) {
		}

		void payFallback(long orderId) {
		}

		public void payByReference(String reference) {
		}

		public void transfer(long from, long to) {
		}

		@Scheduled(fixedRate = 1000)
		public void nightly() {
		}

		public void nightlyFallback() {
		}

		public int count(long orderId) {
			return 0;
		}

		private int countFallback(long orderId) {
			return -1;
		}

		public Optional<String> find(long orderId) {
			return Optional.empty();
		}

		Optional<String> findFallback(long orderId) {
			return Optional.empty();
		}

		public CharSequence describe(long orderId) {
			return "";
		}

		String describeFallback(long orderId) {
			return "";
		}

		public Integer boxed(long orderId) {
			return 0;
		}

		public CompletableFuture<String> payLater(long orderId) {
			return CompletableFuture.completedFuture("");
		}

		public CompletionStage<String> payStage(long orderId) {
			return CompletableFuture.completedFuture("");
		}

		public Mono<String> reserve(long orderId) {
			return Mono.empty();
		}

		public Flux<String> reserveAll(long orderId) {
			return Flux.empty();
		}

		public Publisher<String> publish(long orderId) {
			return Flux.empty();
		}

	}

	static class SpecialOrders extends Orders {

	}

}
