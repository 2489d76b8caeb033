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

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.convert.support.DefaultConversionService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LockKeyEvaluator}.
 */
class LockKeyEvaluatorTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	private final LockKeyEvaluator evaluator = new LockKeyEvaluator(new DefaultParameterNameDiscoverer(),
			this.beanFactory, new DefaultConversionService());

	private final Orders target = new Orders();

	LockKeyEvaluatorTests() {
		this.beanFactory.registerSingleton("keys", new Keys());
	}

	@Test
	void literalKeyIsUsedAsItIs() {
		assertThat(evaluate("pay", "reports", 42L)).isEqualTo("reports");
	}

	@Test
	void emptyKeyIsTheMethodsLock() {
		assertThat(evaluate("pay", "", 42L)).isEqualTo(Orders.class.getName() + ".pay");
	}

	@Test
	void argumentByNameIsConvertedToString() {
		assertThat(evaluate("pay", "#orderId", 42L)).isEqualTo("42");
	}

	@Test
	void argumentByPPosition() {
		assertThat(evaluate("reserve", "#p0", "A-1", 3)).isEqualTo("A-1");
	}

	@Test
	void argumentByAPosition() {
		assertThat(evaluate("reserve", "#a1", "A-1", 3)).isEqualTo("3");
	}

	@Test
	void argumentByNameInsideExpressionIsSameAsAlone() {
		assertThat(evaluate("pay", "#orderId + ''", 42L)).isEqualTo(evaluate("pay", "#orderId", 42L));
	}

	@Test
	void propertyPathOfArgument() {
		assertThat(evaluate("ship", "#order.customer.id", new Order(new Customer(7L)))).isEqualTo("7");
	}

	@Test
	void stringConcatenation() {
		assertThat(evaluate("reserve", "'inv:' + #sku", "A-1", 3)).isEqualTo("inv:A-1");
	}

	@Test
	void concatenationOfSeveralArguments() {
		assertThat(evaluate("reserve", "#sku + ':' + #quantity", "A-1", 3)).isEqualTo("A-1:3");
	}

	@Test
	void beanReference() {
		assertThat(evaluate("ship", "@keys.forOrder(#order)", new Order(new Customer(7L)))).isEqualTo("customer-7");
	}

	@Test
	void rootMethodName() {
		assertThat(evaluate("pay", "#root.methodName", 42L)).isEqualTo("pay");
	}

	@Test
	void rootTargetClass() {
		assertThat(evaluate("pay", "#root.targetClass.simpleName", 42L)).isEqualTo("Orders");
	}

	@Test
	void rootArgsAndTarget() {
		assertThat(evaluate("pay", "#root.args[0] + ':' + #root.target.region", 42L)).isEqualTo("42:eu");
	}

	@Test
	void enumIsConvertedToItsName() {
		assertThat(evaluate("any", "#value", Region.EU_WEST)).isEqualTo("EU_WEST");
	}

	@Test
	void uuidIsConvertedToString() {
		UUID id = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");

		assertThat(evaluate("any", "#value", id)).isEqualTo("0f8fad5b-d9cb-469f-a165-70867728950e");
	}

	@Test
	void bigDecimalIsConvertedToString() {
		assertThat(evaluate("any", "#value", new BigDecimal("1.50"))).isEqualTo("1.50");
	}

	@Test
	void valueTypeWithStringConstructorIsConvertedThroughToString() {
		assertThat(evaluate("any", "#value", new Sku("A-1"))).isEqualTo("A-1");
	}

	@Test
	void nullArgumentFailsNamingMethodAndExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("reserve", "#sku", null, 3))
			.withMessageContaining("Lock key '#sku'")
			.withMessageContaining(methodName("reserve"))
			.withMessageContaining("evaluated to null")
			.withMessageContaining("the method was not run");
	}

	@Test
	void nullExpressionResultFailsNamingMethodAndExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("ship", "#order?.customer", new Order(null)))
			.withMessageContaining("Lock key '#order?.customer'")
			.withMessageContaining(methodName("ship"))
			.withMessageContaining("evaluated to null")
			.withMessageContaining("the method was not run");
	}

	@Test
	void nullArgumentKeyNamesTheArgumentAndSuggestsADefaultWithTheElvisOperator() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("reserve", "#sku", null, 3))
			.withMessageContaining("evaluated to null: argument #sku (#p0) was null. Pass a non-null argument or, if "
					+ "such calls may share one lock, give a default with the Elvis operator, for example "
					+ "\"#sku ?: 'none'\"");
	}

	@Test
	void nullExpressionResultNamesEveryNullArgumentAndPutsTheExpressionInParenthesesForTheDefault() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> evaluate("reserve", "#quantity > 0 ? #sku : null", null, 3))
			.withMessageContaining("evaluated to null: argument #sku (#p0) was null")
			.withMessageContaining("for example \"(#quantity > 0 ? #sku : null) ?: 'none'\"");
	}

	@Test
	void nullPropertyOnTheWaySaysNoArgumentWasNull() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("ship", "#order?.customer", new Order(null)))
			.withMessageContaining("evaluated to null: no argument was null, a property or method it reads gave null")
			.withMessageContaining("for example \"#order?.customer ?: 'none'\"");
	}

	@Test
	void nullKeyOfAParameterNameMissingFromTheClassFileGivesTheParametersFlagHint() {
		ParameterNameDiscoverer noNames = new ParameterNameDiscoverer() {

			@Override
			public String @Nullable [] getParameterNames(Method method) {
				return null;
			}

			@Override
			public String @Nullable [] getParameterNames(Constructor<?> ctor) {
				return null;
			}

		};
		LockKeyEvaluator evaluator = new LockKeyEvaluator(noNames, null, new DefaultConversionService());

		assertThatIllegalArgumentException()
			.isThrownBy(() -> evaluator.evaluate(operation("reserve", "#sku?.trim()"), new Object[] { "A-1", 3 },
					this.target, Orders.class))
			.withMessageContaining("Lock key '#sku?.trim()'")
			.withMessageContaining("evaluated to null: the parameter names of this method are not in its class file, "
					+ "so #sku is always null. Compile with the '-parameters' flag")
			.withMessageContaining("or refer to the argument by position: #p0, #p1, ...");
	}

	@Test
	void nullArgumentInKeysNamesTheArgument() {
		LockOperation operation = multiKeyOperation("", "skus", "#skus", "#more");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.evaluator.evaluateAll(operation, new Object[] { List.of("A"), null }, this.target,
					Orders.class))
			.withMessageContaining("Lock key '#more'")
			.withMessageContaining("evaluated to null: argument #more (#p1) was null");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t" })
	void blankResultFails(String sku) {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("reserve", "#sku", sku, 3))
			.withMessageContaining(methodName("reserve"))
			.withMessageContaining("evaluated to a blank String")
			.withMessageContaining("the method was not run");
	}

	@Test
	void blankExpressionResultFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("reserve", "#sku.trim()", "  ", 3))
			.withMessageContaining("Lock key '#sku.trim()'")
			.withMessageContaining("evaluated to a blank String");
	}

	@Test
	void collectionResultFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value", List.of("a", "b")))
			.withMessageContaining(methodName("any"))
			.withMessageContaining("a lock key must be a single value")
			.withMessageContaining("the method was not run");
	}

	@Test
	void setResultFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value", Set.of("a")))
			.withMessageContaining("a lock key must be a single value");
	}

	@Test
	void arrayResultFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> evaluate("any", "#value", (Object) new String[] { "a", "b" }))
			.withMessageContaining("evaluated to a [Ljava.lang.String;")
			.withMessageContaining("a lock key must be a single value");
	}

	@Test
	void primitiveArrayResultFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value", (Object) new long[] { 1 }))
			.withMessageContaining("a lock key must be a single value");
	}

	@Test
	void rootArgsResultFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("pay", "#root.args", 42L))
			.withMessageContaining("Lock key '#root.args'")
			.withMessageContaining("a lock key must be a single value");
	}

	@Test
	void mapResultFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value", Map.of("a", "b")))
			.withMessageContaining("a lock key must be a single value");
	}

	@Test
	void classValueIsTurnedIntoItsName() {
		assertThat(evaluate("pay", "#root.targetClass", 42L)).isEqualTo(Orders.class.getName());
	}

	@Test
	void valueWithoutConverterUsesItsOwnToString() {
		assertThat(evaluate("any", "#value", new Hostile("x") {

			@Override
			public String toString() {
				return "friendly";
			}

		})).isEqualTo("friendly");
	}

	@Test
	void valueThatCannotBeConvertedFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value", new Object()))
			.withMessageContaining(methodName("any"))
			.withMessageContaining(
					"evaluated to a java.lang.Object, which has no String conversion and no toString() of its own")
			.withMessageContaining("the method was not run");
	}

	@Test
	void toStringThatThrowsFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value", new Hostile("x")))
			.withMessageContaining(methodName("any"))
			.withMessageContaining("could not be turned into a String")
			.withMessageContaining("the method was not run")
			.havingRootCause()
			.withMessage("hostile toString");
	}

	@Test
	void toStringThatThrowsInsideExpressionFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "'k:' + #value", new Hostile("x")))
			.withMessageContaining("Lock key ''k:' + #value'")
			.withMessageContaining("could not be evaluated")
			.withMessageContaining("the method was not run");
	}

	@Test
	void navigatingNullPropertyFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("ship", "#order.customer.id", new Order(null)))
			.withMessageContaining("Lock key '#order.customer.id'")
			.withMessageContaining(methodName("ship"))
			.withMessageContaining("could not be evaluated")
			.withMessageContaining("the method was not run");
	}

	@Test
	void methodThatThrowsInsideExpressionFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> evaluate("any", "#value.key()", new Hostile("x")))
			.withMessageContaining("Lock key '#value.key()'")
			.withMessageContaining("could not be evaluated")
			.withMessageContaining("no key today")
			.withMessageContaining("the method was not run")
			.withCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void beanMethodThatThrowsFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> evaluate("ship", "@keys.forOrder(#order)", new Order(null)))
			.withMessageContaining("Lock key '@keys.forOrder(#order)'")
			.withMessageContaining("could not be evaluated")
			.withMessageContaining("the method was not run");
	}

	@Test
	void beanReferenceWithoutBeanFactoryFails() {
		LockKeyEvaluator evaluator = new LockKeyEvaluator(new DefaultParameterNameDiscoverer(), null,
				new DefaultConversionService());
		LockOperation operation = operation("ship", "@keys.forOrder(#order)");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> evaluator.evaluate(operation, new Object[] { new Order(new Customer(7L)) }, this.target,
					Orders.class))
			.withMessageContaining("could not be evaluated");
	}

	@Test
	void evaluationIsRepeatableAcrossManyCalls() {
		LockOperation operation = operation("reserve", "'inv:' + #sku");

		for (int i = 0; i < 500; i++) {
			assertThat(this.evaluator.evaluate(operation, new Object[] { "A-" + i, i }, this.target, Orders.class))
				.isEqualTo("inv:A-" + i);
		}
	}

	@Test
	void givenKeysWhenEvaluatedThenEveryElementIsAKeyUnderTheName() {
		LockOperation operation = multiKeyOperation("accounts", "transfer", "#from", "#to");

		assertThat(this.evaluator.evaluateAll(operation, new Object[] { 1L, 2L }, this.target, Orders.class))
			.containsExactly("accounts:1", "accounts:2");
	}

	@Test
	void givenKeysElementsWithCollectionsAndArraysWhenEvaluatedThenEachOfTheirElementsIsAKey() {
		LockOperation operation = multiKeyOperation("", "skus", "#skus", "#more", "'extra'");

		assertThat(this.evaluator.evaluateAll(operation, new Object[] { List.of("A", "B"), new long[] { 7, 8 } },
				this.target, Orders.class))
			.containsExactly("A", "B", "7", "8", "extra");
	}

	@Test
	void givenAProjectionWhenEvaluatedThenEachProjectedValueIsAKey() {
		LockOperation operation = multiKeyOperation("sku", "skus", "#skus.![toUpperCase()]", "#more");

		assertThat(this.evaluator.evaluateAll(operation, new Object[] { List.of("a", "b"), new long[0] }, this.target,
				Orders.class))
			.containsExactly("sku:A", "sku:B");
	}

	@Test
	void givenDuplicateKeysWhenEvaluatedThenTheyCollapse() {
		LockOperation operation = multiKeyOperation("", "transfer", "#from", "#to");

		assertThat(this.evaluator.evaluateAll(operation, new Object[] { 5L, 5L }, this.target, Orders.class))
			.containsExactly("5");
	}

	@Test
	void givenKeysThatGiveNoKeyWhenEvaluatedThenTheCallFails() {
		LockOperation operation = multiKeyOperation("", "skus", "#skus", "#more");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.evaluator.evaluateAll(operation, new Object[] { List.of(), new long[0] },
					this.target, Orders.class))
			.withMessageContaining("gave no key at all")
			.withMessageContaining(methodName("skus"))
			.withMessageContaining("the method was not run");
	}

	@Test
	void givenACollectionHoldingNullWhenEvaluatedThenTheCallFailsNamingTheElement() {
		LockOperation operation = multiKeyOperation("", "skus", "#more", "#skus");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.evaluator.evaluateAll(operation,
					new Object[] { Arrays.asList("A", null), new long[] { 1 } }, this.target, Orders.class))
			.withMessageContaining("Lock key '#skus'")
			.withMessageContaining("evaluated to null for an element of its collection or array; leave nulls out, "
					+ "for example with a selection: #skus.?[#this != null]");
	}

	@Test
	void givenANestedCollectionWhenEvaluatedThenTheCallFails() {
		LockOperation operation = multiKeyOperation("", "skus", "#skus", "#more");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.evaluator.evaluateAll(operation,
					new Object[] { List.of(List.of("A")), new long[] { 1 } }, this.target, Orders.class))
			.withMessageContaining("a lock key must be a single value");
	}

	private String evaluate(String methodName, String key, @Nullable Object... args) {
		return this.evaluator.evaluate(operation(methodName, key), args, this.target, Orders.class);
	}

	private static LockOperation operation(String methodName, String key) {
		Method method = KeyExpressionParserTests.method(Orders.class, methodName);
		KeyExpression expression = new KeyExpressionParser(null).parse(key, "", method);
		return new LockOperationBuilder(method).key(expression)
			.ttl(Duration.ofSeconds(10))
			.waitTime(Duration.ZERO)
			.lockName("Orders.test")
			.build();
	}

	private static LockOperation multiKeyOperation(String name, String methodName, String... keys) {
		Method method = KeyExpressionParserTests.method(Orders.class, methodName);
		KeyExpressionParser parser = new KeyExpressionParser(null);
		List<KeyExpression> expressions = Arrays.stream(keys)
			.map((key) -> parser.parse(key, name, method, "keys"))
			.toList();
		return new LockOperationBuilder(method).name(name)
			.key(parser.parse("", name, method))
			.keys(expressions)
			.ttl(Duration.ofSeconds(10))
			.waitTime(Duration.ZERO)
			.lockName("Orders.test")
			.build();
	}

	private static String methodName(String name) {
		return KeyExpressionParserTests.methodName(Orders.class, name);
	}

	static class Orders {

		public String getRegion() {
			return "eu";
		}

		public void pay(long orderId) {
		}

		public void reserve(String sku, int quantity) {
		}

		public void ship(Order order) {
		}

		public void transfer(long from, long to) {
		}

		public void skus(List<String> skus, long[] more) {
		}

		public void any(Object value) {
		}

	}

	record Customer(long id) {

	}

	record Order(@Nullable Customer customer) {

	}

	enum Region {

		EU_WEST

	}

	record Sku(String value) {

		// Public, so that the conversion service sees a value type made from a String.
		public Sku {
		}

		@Override
		public String toString() {
			return this.value;
		}

	}

	static class Keys {

		public String forOrder(Order order) {
			if (order.customer() == null) {
				throw new IllegalStateException("order without customer");
			}
			return "customer-" + order.customer().id();
		}

	}

	static class Hostile {

		public Hostile(String value) {
		}

		public String key() {
			throw new IllegalStateException("no key today");
		}

		@Override
		public String toString() {
			throw new IllegalStateException("hostile toString");
		}

	}

}
