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
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link KeyExpressionParser}.
 */
class KeyExpressionParserTests {

	private final KeyExpressionParser parser = new KeyExpressionParser(null);

	@ParameterizedTest
	@ValueSource(strings = { "reports", "a.b-c", "{user-7}:cart", "ключ", "a b" })
	void keyWithoutSpelMarkersStaysLiteral(String key) {
		KeyExpression expression = this.parser.parse(key, "", method(Orders.class, "pay"));

		assertThat(expression).isEqualTo(new KeyExpression.Literal(key, key));
	}

	@Test
	void emptyKeyIsTheName() {
		KeyExpression expression = this.parser.parse("", "orders", method(Orders.class, "pay"));

		assertThat(expression).isEqualTo(new KeyExpression.Literal("orders", ""));
	}

	@Test
	void emptyKeyWithoutNameIsQualifiedClassNameDotMethodName() {
		KeyExpression expression = this.parser.parse("", "", method(Orders.class, "pay"));

		assertThat(expression).isEqualTo(new KeyExpression.Literal(Orders.class.getName() + ".pay", ""));
	}

	@Test
	void blankKeyFailsNamingMethodAndKey() {
		assertThatIllegalStateException().isThrownBy(() -> this.parser.parse("  ", "", method(Orders.class, "pay")))
			.withMessageContaining(methodName(Orders.class, "pay"))
			.withMessageContaining("key '  ' is blank");
	}

	@Test
	void parameterNameBecomesArgumentKey() {
		KeyExpression expression = this.parser.parse("#sku", "", method(Orders.class, "reserve"));

		assertThat(expression).isEqualTo(new KeyExpression.Argument(0, "#sku"));
	}

	@Test
	void secondParameterNameBecomesArgumentKeyWithItsIndex() {
		KeyExpression expression = this.parser.parse("#quantity", "", method(Orders.class, "reserve"));

		assertThat(expression).isEqualTo(new KeyExpression.Argument(1, "#quantity"));
	}

	@Test
	void argumentKeyMayBeSurroundedByWhitespace() {
		KeyExpression expression = this.parser.parse(" #orderId ", "", method(Orders.class, "pay"));

		assertThat(expression).isEqualTo(new KeyExpression.Argument(0, " #orderId "));
	}

	@Test
	void pPositionBecomesArgumentKey() {
		KeyExpression expression = this.parser.parse("#p0", "", method(Orders.class, "reserve"));

		assertThat(expression).isEqualTo(new KeyExpression.Argument(0, "#p0"));
	}

	@Test
	void aPositionBecomesArgumentKey() {
		KeyExpression expression = this.parser.parse("#a1", "", method(Orders.class, "reserve"));

		assertThat(expression).isEqualTo(new KeyExpression.Argument(1, "#a1"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "#order.customer.id", "'inv:' + #sku", "#root.methodName", "#root.targetClass",
			"#root.args[0]", "#this", "#root", "#sku + ':' + #quantity", "#quantity > 1 ? 'bulk' : #sku" })
	void expressionBecomesSpelKey(String key) {
		Method method = method(Orders.class, "everything");

		KeyExpression expression = this.parser.parse(key, "", method);

		assertThat(expression).isInstanceOfSatisfying(KeyExpression.Spel.class,
				(spel) -> assertThat(spel.expression().getExpressionString()).isEqualTo(key));
		assertThat(expression.source()).isEqualTo(key);
	}

	@Test
	void beanReferenceToExistingBeanBecomesSpelKey() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton("keys", new Object());
		KeyExpressionParser parser = new KeyExpressionParser(beanFactory);

		KeyExpression expression = parser.parse("@keys.forOrder(#order)", "", method(Orders.class, "everything"));

		assertThat(expression).isInstanceOf(KeyExpression.Spel.class);
	}

	@Test
	void beanReferenceIsNotCheckedWithoutBeanFactory() {
		KeyExpression expression = this.parser.parse("@nosuch.forOrder(#order)", "",
				method(Orders.class, "everything"));

		assertThat(expression).isInstanceOf(KeyExpression.Spel.class);
	}

	@Test
	void beanReferenceToUnknownBeanFailsNamingMethodAndBean() {
		KeyExpressionParser parser = new KeyExpressionParser(new DefaultListableBeanFactory());

		assertThatIllegalStateException()
			.isThrownBy(() -> parser.parse("@nosuch.forOrder(#order)", "", method(Orders.class, "everything")))
			.withMessageContaining(methodName(Orders.class, "everything"))
			.withMessageContaining("key '@nosuch.forOrder(#order)'")
			.withMessageContaining("bean 'nosuch', but there is no such bean");
	}

	@Test
	void unparsableExpressionFailsNamingMethodAndKey() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.parser.parse("'inv:' + ", "", method(Orders.class, "reserve")))
			.withMessageContaining(methodName(Orders.class, "reserve"))
			.withMessageContaining("key ''inv:' + ' is not a valid SpEL expression");
	}

	@Test
	void unknownParameterNameFailsListingTheParameters() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.parser.parse("#nosuchparam", "", method(Orders.class, "reserve")))
			.withMessageContaining(methodName(Orders.class, "reserve"))
			.withMessageContaining("key '#nosuchparam' refers to #nosuchparam")
			.withMessageContaining("[sku, quantity]");
	}

	@Test
	void unknownParameterNameInsideExpressionFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.parser.parse("'inv:' + #nosuchparam", "", method(Orders.class, "reserve")))
			.withMessageContaining(methodName(Orders.class, "reserve"))
			.withMessageContaining("refers to #nosuchparam, but the method has no such parameter");
	}

	@Test
	void positionOutOfRangeFailsNamingTheParameterCount() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.parser.parse("#p5", "", method(Orders.class, "reserve")))
			.withMessageContaining(methodName(Orders.class, "reserve"))
			.withMessageContaining("key '#p5' refers to #p5, but the method has 2 parameters");
	}

	@Test
	void positionOutOfRangeInsideExpressionFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.parser.parse("'order:' + #a1", "", method(Orders.class, "pay")))
			.withMessageContaining(methodName(Orders.class, "pay"))
			.withMessageContaining("refers to #a1, but the method has 1 parameter");
	}

	@Test
	void parameterNamesMissingFromClassFileFailWithHintToCompileWithParametersFlag(@TempDir Path classes)
			throws Exception {
		Class<?> compiled = compileWithoutParametersFlag(classes);
		Method method = compiled.getMethod("pay", long.class);

		assertThatIllegalStateException().isThrownBy(() -> this.parser.parse("#orderId", "", method))
			.withMessageContaining("NoParameterNames.pay(long)")
			.withMessageContaining("refers to parameter 'orderId' by name")
			.withMessageContaining("Compile with the '-parameters' flag")
			.withMessageContaining("#p0");
	}

	@Test
	void parameterNamesMissingFromClassFileFailInsideExpression(@TempDir Path classes) throws Exception {
		Class<?> compiled = compileWithoutParametersFlag(classes);
		Method method = compiled.getMethod("pay", long.class);

		assertThatIllegalStateException().isThrownBy(() -> this.parser.parse("'order:' + #orderId", "", method))
			.withMessageContaining("'-parameters'");
	}

	@Test
	void positionWorksWithoutParameterNamesInClassFile(@TempDir Path classes) throws Exception {
		Class<?> compiled = compileWithoutParametersFlag(classes);
		Method method = compiled.getMethod("pay", long.class);

		assertThat(this.parser.parse("#p0", "", method)).isEqualTo(new KeyExpression.Argument(0, "#p0"));
		assertThat(this.parser.parse("'order:' + #a0", "", method)).isInstanceOf(KeyExpression.Spel.class);
	}

	private static Class<?> compileWithoutParametersFlag(Path classes) throws Exception {
		return CompiledFixture.compileWithoutParametersFlag(classes, "NoParameterNames", """
				public class NoParameterNames {
					public void pay(long orderId) {
					}
				}
				""");
	}

	static Method method(Class<?> type, String name) {
		return Stream.of(type.getDeclaredMethods())
			.filter((candidate) -> candidate.getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	static String methodName(Class<?> type, String name) {
		return type.getName() + "." + name + "(";
	}

	static class Orders {

		public void pay(long orderId) {
		}

		public void reserve(String sku, int quantity) {
		}

		public void everything(Object order, String sku, int quantity) {
		}

	}

}
