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

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;

import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.support.PropertySourcesPlaceholderConfigurer;
import org.springframework.core.annotation.AliasFor;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link AnnotationLockOperationSource}.
 */
class AnnotationLockOperationSourceTests {

	private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

	private final AnnotationLockOperationSource source = new AnnotationLockOperationSource(DEFAULT_TTL, Duration.ZERO);

	// Kotlin 2.2 copies an open suspend function's annotations onto the static
	// foo$suspendImpl holding its body, not marked synthetic; Spring AOP asks about every
	// method of the class, in no fixed order.
	@Test
	void staticBodyOfASuspendFunctionHasNoOperationAndDoesNotFail() throws Exception {
		Method body = KotlinLikeService.class.getDeclaredMethod("reserve$suspendImpl", KotlinLikeService.class,
				String.class);

		assertThat(this.source.getLockOperation(body, KotlinLikeService.class)).isNull();
		assertThat(this.source.getLockOperation(KotlinLikeService.class.getMethod("reserve", String.class),
				KotlinLikeService.class))
			.isNotNull();
	}

	@Test
	void annotatedMethodHasOperation() throws Exception {
		Method method = Orders.class.getMethod("pay", long.class);

		LockOperation operation = this.source.getLockOperation(method, Orders.class);

		assertThat(operation).isNotNull();
		assertThat(operation.method()).isEqualTo(method);
		assertThat(operation.key()).isEqualTo(new KeyExpression.Argument(0, "#orderId"));
		assertThat(operation.ttl()).isEqualTo(Duration.ofSeconds(10));
		assertThat(operation.waitTime()).isZero();
	}

	@Test
	void methodWithoutAnnotationHasNoOperation() throws Exception {
		assertThat(this.source.getLockOperation(Orders.class.getMethod("list"), Orders.class)).isNull();
	}

	@Test
	void objectMethodHasNoOperation() throws Exception {
		assertThat(this.source.getLockOperation(Object.class.getMethod("toString"), Orders.class)).isNull();
	}

	@Test
	void operationIsCachedPerMethodAndTargetClass() throws Exception {
		Method method = Orders.class.getMethod("pay", long.class);

		LockOperation first = this.source.getLockOperation(method, Orders.class);
		LockOperation second = this.source.getLockOperation(method, Orders.class);

		assertThat(second).isSameAs(first);
	}

	@Test
	void absentOperationIsCachedToo() throws Exception {
		Method method = Orders.class.getMethod("list");

		assertThat(this.source.getLockOperation(method, Orders.class)).isNull();
		assertThat(this.source.getLockOperation(method, Orders.class)).isNull();
	}

	@Test
	void classWithAnnotatedMethodIsCandidate() {
		assertThat(this.source.isCandidateClass(Orders.class)).isTrue();
		assertThat(this.source.isCandidateClass(Orders.class)).isTrue();
	}

	@Test
	void classWithoutAnnotatedMethodIsNotCandidate() throws Exception {
		assertThat(this.source.isCandidateClass(Plain.class)).isFalse();
		assertThat(this.source.isCandidateClass(Plain.class)).isFalse();
		assertThat(this.source.getLockOperation(Plain.class.getMethod("pay", long.class), Plain.class)).isNull();
	}

	@Test
	void givenKotlinsStaticSuspendImplCopyOfAnAnnotatedSuspendFunctionWhenTheClassIsScannedThenOnlyTheFunctionIsParsed()
			throws Exception {
		// Kotlin 2.2 copies the annotations of an open suspend function onto the static,
		// non-synthetic foo$suspendImpl that holds its body; no proxy calls that one.
		assertThat(this.source.isCandidateClass(KotlinSuspendShape.class)).isTrue();
		assertThat(this.source.getLockOperations()).singleElement()
			.satisfies((operation) -> assertThat(operation.toString()).contains("KotlinSuspendShape.reserve("));
	}

	@Test
	void javaClassIsNotCandidate() {
		assertThat(this.source.isCandidateClass(String.class)).isFalse();
	}

	@Test
	void subclassOfAnnotatedClassIsCandidate() throws Exception {
		assertThat(this.source.isCandidateClass(SpecialOrders.class)).isTrue();
		LockOperation operation = this.source.getLockOperation(Orders.class.getMethod("pay", long.class),
				SpecialOrders.class);
		assertThat(operation).isNotNull();
		assertThat(operation.method()).isEqualTo(SpecialOrders.class.getMethod("pay", long.class));
	}

	@Test
	void classBasedProxyIsCandidateAndResolvesToUserClass() throws Exception {
		ProxyFactory factory = new ProxyFactory(new Orders());
		factory.setProxyTargetClass(true);
		Class<?> proxyClass = factory.getProxy().getClass();

		assertThat(this.source.isCandidateClass(proxyClass)).isTrue();
		LockOperation operation = this.source.getLockOperation(Orders.class.getMethod("pay", long.class), proxyClass);
		assertThat(operation).isNotNull();
		assertThat(operation.method()).isEqualTo(Orders.class.getMethod("pay", long.class));
	}

	@Test
	void annotationOnInterfaceMethodIsFoundThroughImplementation() throws Exception {
		Method interfaceMethod = Payments.class.getMethod("pay", long.class);

		LockOperation operation = this.source.getLockOperation(interfaceMethod, DefaultPayments.class);

		assertThat(operation).isNotNull();
		assertThat(operation.method()).isEqualTo(DefaultPayments.class.getMethod("pay", long.class));
		assertThat(operation.name()).isEqualTo("payments");
		assertThat(operation.key()).isEqualTo(new KeyExpression.Argument(0, "#orderId"));
		assertThat(
				this.source.getLockOperation(DefaultPayments.class.getMethod("pay", long.class), DefaultPayments.class))
			.isNotNull();
	}

	@Test
	void annotationOnInterfaceMethodMakesImplementationCandidate() {
		assertThat(this.source.isCandidateClass(DefaultPayments.class)).isTrue();
	}

	@Test
	void annotationOnInterfaceMethodIsFoundWithoutTargetClass() throws Exception {
		Method interfaceMethod = Payments.class.getMethod("pay", long.class);

		LockOperation operation = this.source.getLockOperation(interfaceMethod, null);

		assertThat(operation).isNotNull();
		assertThat(operation.method()).isEqualTo(interfaceMethod);
	}

	@Test
	void annotationOnInterfaceImplementedByJdkProxyIsFound() throws Exception {
		Class<?> proxyClass = Proxy
			.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Payments.class },
					(proxy, method, args) -> null)
			.getClass();
		Method interfaceMethod = Payments.class.getMethod("pay", long.class);

		assertThat(this.source.isCandidateClass(proxyClass)).isTrue();
		LockOperation operation = this.source.getLockOperation(interfaceMethod, proxyClass);
		assertThat(operation).isNotNull();
		assertThat(operation.method()).isEqualTo(interfaceMethod);
		assertThat(operation.key()).isEqualTo(new KeyExpression.Argument(0, "#orderId"));
	}

	@Test
	void defaultInterfaceMethodIsFound() throws Exception {
		assertThat(this.source.isCandidateClass(DefaultReports.class)).isTrue();
		LockOperation operation = this.source.getLockOperation(Reports.class.getMethod("render"), DefaultReports.class);
		assertThat(operation).isNotNull();
		assertThat(operation.key()).isEqualTo(new KeyExpression.Literal("reports", "reports"));
	}

	@Test
	void composedAnnotationIsFoundAndMerged() throws Exception {
		LockOperation operation = this.source.getLockOperation(Orders.class.getMethod("ship", long.class),
				Orders.class);

		assertThat(operation).isNotNull();
		assertThat(operation.name()).isEqualTo("orders");
		assertThat(operation.ttl()).isEqualTo(Duration.ofSeconds(30));
		assertThat(operation.key()).isEqualTo(new KeyExpression.Argument(0, "#orderId"));
		assertThat(operation.lockKey("42")).isEqualTo("orders:42");
	}

	@Test
	void composedAnnotationMakesClassCandidate() {
		assertThat(this.source.isCandidateClass(Shipping.class)).isTrue();
	}

	@Test
	void fallbackMethodIsLookedUpOnTargetClass() throws Exception {
		LockOperation operation = this.source.getLockOperation(Orders.class.getMethod("reserve", String.class),
				Orders.class);

		assertThat(operation).isNotNull();
		assertThat(operation.onFailure()).isEqualTo(LockFailurePolicy.FALLBACK);
		assertThat(operation.fallback()).isEqualTo(Orders.class.getDeclaredMethod("reserveLater", String.class));
	}

	@Test
	void privateAnnotatedMethodFailsWhenClassIsScanned() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(PrivateMethod.class))
			.withMessageContaining(PrivateMethod.class.getName() + ".pay(")
			.withMessageContaining("the method is private");
	}

	@Test
	void finalAnnotatedMethodFailsWhenClassIsScanned() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(FinalMethod.class))
			.withMessageContaining(FinalMethod.class.getName() + ".pay(")
			.withMessageContaining("the method is final")
			.withMessageNotContaining("Kotlin");
	}

	@Test
	void staticAnnotatedMethodFailsWhenClassIsScanned() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(StaticMethod.class))
			.withMessageContaining(StaticMethod.class.getName() + ".pay(")
			.withMessageContaining("the method is static");
	}

	@Test
	void forAWovenAspectPrivateAndFinalMethodsAreLockedButStaticOnesStillFail() throws Exception {
		AnnotationLockOperationSource woven = new AnnotationLockOperationSource(DEFAULT_TTL, Duration.ZERO, false);

		assertThat(woven.isCandidateClass(PrivateMethod.class)).isTrue();
		assertThat(
				woven.getLockOperation(PrivateMethod.class.getDeclaredMethod("pay", long.class), PrivateMethod.class))
			.isNotNull();
		assertThat(woven.isCandidateClass(FinalMethod.class)).isTrue();
		assertThatIllegalStateException().isThrownBy(() -> woven.isCandidateClass(StaticMethod.class))
			.withMessageContaining(StaticMethod.class.getName() + ".pay(")
			.withMessageContaining("the method is static");
	}

	@Test
	void privateAnnotatedMethodOfSuperclassFailsWhenSubclassIsScanned() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(PrivateMethodSubclass.class))
			.withMessageContaining(PrivateMethod.class.getName() + ".pay(")
			.withMessageContaining("the method is private");
	}

	@Test
	void invalidAttributeFailsWhenClassIsScanned() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(BadTtl.class))
			.withMessageContaining(BadTtl.class.getName() + ".pay(")
			.withMessageContaining("ttl 'abc' is not a valid duration");
	}

	@Test
	void defaultTtlBelowTheRenewalMinimumFailsARenewedMethodThatUsesIt() {
		AnnotationLockOperationSource shortDefault = new AnnotationLockOperationSource(Duration.ofMillis(100),
				Duration.ZERO);
		assertThatIllegalStateException().isThrownBy(() -> shortDefault.isCandidateClass(DefaultTtl.class))
			.withMessageContaining(DefaultTtl.class.getName() + ".renewed(")
			.withMessageContaining("ttl (empty, so the default of 100ms) is too short for a lease that is renewed");
	}

	@Test
	void defaultTtlBelowTheRenewalMinimumIsAcceptedForAFixedLease() throws Exception {
		AnnotationLockOperationSource shortDefault = new AnnotationLockOperationSource(Duration.ofMillis(100),
				Duration.ZERO);
		Method fixed = DefaultTtl.class.getMethod("fixed");
		assertThat(shortDefault.getLockOperation(fixed, DefaultTtl.class).ttl()).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void invalidClassFailsAgainWhenScannedAgain() {
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(BadTtl.class));
		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(BadTtl.class));
	}

	@Test
	void placeholdersAreResolvedThroughTheBeanFactory() throws Exception {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		PropertySourcesPlaceholderConfigurer placeholders = new PropertySourcesPlaceholderConfigurer();
		placeholders.setEnvironment(new MockEnvironment().withProperty("orders.lock-ttl", "45s"));
		placeholders.postProcessBeanFactory(beanFactory);
		this.source.setBeanFactory(beanFactory);

		LockOperation operation = this.source.getLockOperation(Placeholders.class.getMethod("pay", long.class),
				Placeholders.class);

		assertThat(operation).isNotNull();
		assertThat(operation.ttl()).isEqualTo(Duration.ofSeconds(45));
	}

	@Test
	void beanReferencesAreCheckedAgainstTheBeanFactory() {
		this.source.setBeanFactory(new DefaultListableBeanFactory());

		assertThatIllegalStateException().isThrownBy(() -> this.source.isCandidateClass(BeanKeys.class))
			.withMessageContaining(BeanKeys.class.getName() + ".pay(")
			.withMessageContaining("bean 'keys', but there is no such bean");
	}

	@Test
	void beanReferencesToDefinedBeansAreAccepted() throws Exception {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton("keys", new Object());
		this.source.setBeanFactory(beanFactory);

		assertThat(this.source.isCandidateClass(BeanKeys.class)).isTrue();
	}

	@Test
	void keyByNameWithoutParameterNamesInClassFileFailsWithHintToCompileWithParametersFlag(@TempDir Path classes)
			throws Exception {
		Class<?> compiled = compileWithoutParametersFlag(classes);

		assertThatIllegalStateException()
			.isThrownBy(() -> this.source.getLockOperation(compiled.getMethod("pay", long.class), compiled))
			.withMessageContaining("NoParameterNamesService.pay(long)")
			.withMessageContaining("key '#orderId'")
			.withMessageContaining("Compile with the '-parameters' flag");
	}

	@Test
	void keyByPositionWorksWithoutParameterNamesInClassFile(@TempDir Path classes) throws Exception {
		Class<?> compiled = compileWithoutParametersFlag(classes);

		LockOperation operation = this.source.getLockOperation(compiled.getMethod("refund", long.class), compiled);

		assertThat(operation).isNotNull();
		assertThat(operation.key()).isEqualTo(new KeyExpression.Argument(0, "#p0"));
	}

	@Test
	void defaultTtlBelowOneMillisecondIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new AnnotationLockOperationSource(Duration.ZERO, Duration.ZERO))
			.withMessageContaining("'defaultTtl' must be at least 1ms");
	}

	@Test
	void negativeDefaultWaitTimeIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new AnnotationLockOperationSource(DEFAULT_TTL, Duration.ofSeconds(-1)))
			.withMessageContaining("'defaultWaitTime' must not be negative");
	}

	private static Class<?> compileWithoutParametersFlag(Path classes) throws Exception {
		return CompiledFixture.compileWithoutParametersFlag(classes, "NoParameterNamesService", """
				import io.distlock.annotation.DistributedLocked;

				public class NoParameterNamesService {

					@DistributedLocked(key = "#orderId")
					public void pay(long orderId) {
					}

					@DistributedLocked(key = "#p0")
					public void refund(long orderId) {
					}

				}
				""");
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLocked(name = "orders", ttl = "30s")
	@interface OrderLocked {

		@AliasFor(annotation = DistributedLocked.class)
		String key();

	}

	static class Orders {

		@DistributedLocked(key = "#orderId", ttl = "10s")
		public void pay(long orderId) {
		}

		@OrderLocked(key = "#orderId")
		public void ship(long orderId) {
		}

		@DistributedLocked(key = "#sku", fallbackMethod = "reserveLater")
		public String reserve(String sku) {
			return sku;
		}

		String reserveLater(String sku) {
			return "later";
		}

		public void list() {
		}

	}

	static class SpecialOrders extends Orders {

		@Override
		public void pay(long orderId) {
		}

	}

	static class Plain {

		public void pay(long orderId) {
		}

	}

	static class Shipping {

		@OrderLocked(key = "#p0")
		public void ship(long orderId) {
		}

	}

	interface Payments {

		@DistributedLocked(name = "payments", key = "#orderId")
		void pay(long orderId);

	}

	static class DefaultPayments implements Payments {

		@Override
		public void pay(long orderId) {
		}

	}

	interface Reports {

		@DistributedLocked(key = "reports")
		default void render() {
		}

	}

	static class DefaultReports implements Reports {

	}

	static class PrivateMethod {

		@DistributedLocked
		private void pay(long orderId) {
		}

	}

	static class PrivateMethodSubclass extends PrivateMethod {

	}

	static class FinalMethod {

		@DistributedLocked
		public final void pay(long orderId) {
		}

	}

	static class StaticMethod {

		@DistributedLocked
		public static void pay(long orderId) {
		}

	}

	static class DefaultTtl {

		@DistributedLocked(key = "k")
		public void renewed() {
		}

		@DistributedLocked(key = "k", autoRenew = false)
		public void fixed() {
		}

	}

	static class BadTtl {

		@DistributedLocked(ttl = "abc")
		public void pay(long orderId) {
		}

	}

	static class Placeholders {

		@DistributedLocked(ttl = "${orders.lock-ttl}")
		public void pay(long orderId) {
		}

	}

	static class BeanKeys {

		@DistributedLocked(key = "@keys.forOrder(#orderId)")
		public void pay(long orderId) {
		}

	}

	static class KotlinSuspendShape {

		@DistributedLocked(key = "#sku")
		public Object reserve(String sku, Object continuation) {
			return reserve$suspendImpl(this, sku, continuation);
		}

		@DistributedLocked(key = "#sku")
		public static Object reserve$suspendImpl(KotlinSuspendShape self, String sku, Object continuation) {
			return sku;
		}

	}

	static class KotlinLikeService {

		@DistributedLocked(key = "#sku")
		public Object reserve(String sku) {
			return reserve$suspendImpl(this, sku);
		}

		@DistributedLocked(key = "#sku")
		static Object reserve$suspendImpl(KotlinLikeService service, String sku) {
			return sku;
		}

	}

}
