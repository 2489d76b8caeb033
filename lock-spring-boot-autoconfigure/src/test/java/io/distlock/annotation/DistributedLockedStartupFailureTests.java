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

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.DistLockReactiveAutoConfiguration;
import io.distlock.reactive.ReactiveLockTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Mono;

import io.distlock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.annotation.Async;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a bad {@link DistributedLocked} fails the application's startup, when the
 * bean is created, with a message naming the class, the method and the attribute. No
 * Redis is needed: the failure comes before any lock is taken.
 */
@ExtendWith(OutputCaptureExtension.class)
class DistributedLockedStartupFailureTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
		.withPropertyValues("orders.bad-ttl=soon");

	@Test
	void unparsableKeyExpression() {
		assertStartupFails(UnparsableKey.class, "UnparsableKey.work(java.lang.String)",
				"key '#id +' is not a valid SpEL expression");
	}

	@Test
	void ttlThatIsNotADuration() {
		assertStartupFails(BadTtl.class, "BadTtl.work()", "ttl 'abc' is not a valid duration");
	}

	@Test
	void ttlWithASpaceBeforeTheUnit() {
		assertStartupFails(SpacedTtl.class, "SpacedTtl.work()", "ttl '10 s' is not a valid duration");
	}

	@Test
	void ttlPlaceholderThatResolvesToGarbage() {
		assertStartupFails(BadPlaceholderTtl.class, "BadPlaceholderTtl.work()",
				"ttl '${orders.bad-ttl}' (resolved to 'soon') is not a valid duration");
	}

	@Test
	void zeroTtl() {
		assertStartupFails(ZeroTtl.class, "ZeroTtl.work()", "ttl '0s' must be at least 1ms");
	}

	@Test
	void ttlAboveTheLongestLease() {
		assertStartupFails(HugeTtl.class, "HugeTtl.work()", "ttl '300000000d' is too long; it must be at most 365d");
	}

	@Test
	void renewedTtlWithoutAUnitBelowTheRenewalMinimumFailsTheStartupSayingHowItWasRead() {
		assertStartupFails(UnitlessTtl.class, "UnitlessTtl.work(long)",
				"ttl '10' is read as 10ms (a number without a unit is milliseconds); write \"10s\"");
	}

	@Test
	void renewedTtlBelowTheRenewalMinimumFailsTheStartupNamingTheMinimum() {
		assertStartupFails(ShortTtl.class, "ShortTtl.work()",
				"ttl '300ms' is too short for a lease that is renewed: it must be at least 500ms");
	}

	@Test
	void renewedTtlBelowTheRenewalMinimumByPlaceholderFailsTheStartupNamingTheResolvedValue() {
		this.contextRunner.withPropertyValues("orders.short-ttl=10")
			.withBean(ShortPlaceholderTtl.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining(ShortPlaceholderTtl.class.getName() + ".work()")
				.hasMessageContaining("ttl '${orders.short-ttl}' (resolved to '10') is read as 10ms"));
	}

	@Test
	void renewedTtlOfTheRenewalMinimumIsAccepted() {
		this.contextRunner.withBean(MinimumTtl.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void fixedLeaseBelowTheRenewalMinimumIsAccepted() {
		this.contextRunner.withBean(ShortFixedLease.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void negativeWaitTime() {
		assertStartupFails(NegativeWaitTime.class, "NegativeWaitTime.work()", "waitTime '-5s' must not be negative");
	}

	@Test
	void missingFallbackMethod() {
		assertStartupFails(MissingFallback.class, "MissingFallback.work(java.lang.String)",
				"fallbackMethod 'noSuchMethod' does not exist");
	}

	@Test
	void keyNamingAnUnknownParameter() {
		assertStartupFails(UnknownParameter.class, "UnknownParameter.work(long)",
				"key '#ordrId' refers to #ordrId, but the method has no such parameter");
	}

	@Test
	void annotationOnAPrivateMethod() {
		assertStartupFails(PrivateMethod.class, "PrivateMethod.work()", "the method is private");
	}

	@Test
	void annotationOnAFinalMethod() {
		assertStartupFails(FinalMethod.class, "FinalMethod.work()", "the method is final");
	}

	@Test
	void skipOnAMethodReturningAPrimitive() {
		assertStartupFails(SkipPrimitive.class, "SkipPrimitive.work()", "onFailure = SKIP cannot skip");
	}

	@Test
	void asyncMethodReturningVoidIsRefused() {
		assertStartupFails(AsyncMethod.class, "AsyncMethod.work()",
				"the method is @Async and returns void: its work runs after the method returns, so the lock "
						+ "would not cover it");
	}

	@Test
	void asyncMethodReturningAFutureThatIsNoCompletionStageIsWarnedAbout(CapturedOutput output) {
		this.contextRunner.withBean(AsyncFutureMethod.class).run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("@DistributedLocked together with @Async on")
			.contains(AsyncFutureMethod.class.getName() + ".work()");
	}

	@Test
	void asyncMethodReturningACompletableFutureIsAcceptedWithoutWarning(CapturedOutput output) {
		this.contextRunner.withBean(AsyncCompletableFutureMethod.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("@Async");
	}

	@Test
	void methodReturningAnotherCompletionStageTypeIsRefused() {
		assertStartupFails(CustomStageMethod.class, "CustomStageMethod.work()",
				"a CompletionStage the lock cannot be held across; declare CompletableFuture or CompletionStage");
	}

	@Test
	void fairOnAMonoMethodIsRefused() {
		assertStartupFails(FairMonoMethod.class, "FairMonoMethod.work()",
				"fair = true is not available on a reactive or suspend method");
	}

	@Test
	void methodReturningAnotherPublisherTypeIsRefused() {
		assertStartupFails(CustomPublisherMethod.class, "CustomPublisherMethod.work()",
				"a Publisher the lock cannot be held across; declare Mono, Flux or Publisher");
	}

	@Test
	void monoMethodWithoutAReactiveLockTemplateIsRefused() {
		// No reactive template with replica acknowledgement: its WAIT would hold up the
		// shared connection.
		this.contextRunner.withPropertyValues("distlock.replication.min-replicas=1")
			.withConfiguration(AutoConfigurations.of(DistLockReactiveAutoConfiguration.class))
			.withBean(MonoMethod.class)
			.run((AssertableApplicationContext context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("MonoMethod.work()")
				.hasMessageContaining("needs a ReactiveLockTemplate"));
	}

	@Test
	void monoMethodStartsWithTheAutoConfiguredReactiveLockTemplate() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DistLockReactiveAutoConfiguration.class))
			.withBean(MonoMethod.class)
			.run((AssertableApplicationContext context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ReactiveLockTemplate.class));
	}

	@Test
	void keyAndKeysTogether() {
		assertStartupFails(KeyAndKeys.class, "KeyAndKeys.transfer(long,long)",
				"key '#from' and keys [#to] cannot be combined");
	}

	@Test
	void permitsBelowOne() {
		assertStartupFails(NoPermits.class, "NoPermits.work()", "permits = 0 must be at least 1");
	}

	@Test
	void permitsWithAReadMode() {
		assertStartupFails(ReadPermits.class, "ReadPermits.work()", "permits = 5 cannot be combined with mode = READ");
	}

	@Test
	void keysOnAMethodReturningAFuture() {
		assertStartupFails(AsyncKeys.class, "AsyncKeys.work()", "keys is not available on a method returning");
	}

	private void assertStartupFails(Class<?> beanClass, String method, String problem) {
		this.contextRunner.withBean(beanClass)
			.run((AssertableApplicationContext context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("Invalid @DistributedLocked on")
				.hasMessageContaining(
						beanClass.getName().substring(0, beanClass.getName().lastIndexOf('$') + 1) + method)
				.hasMessageContaining(problem));
	}

	static class UnparsableKey {

		@DistributedLocked(key = "#id +")
		public void work(String id) {
		}

	}

	static class BadTtl {

		@DistributedLocked(key = "k", ttl = "abc")
		public void work() {
		}

	}

	static class SpacedTtl {

		@DistributedLocked(key = "k", ttl = "10 s")
		public void work() {
		}

	}

	static class BadPlaceholderTtl {

		@DistributedLocked(key = "k", ttl = "${orders.bad-ttl}")
		public void work() {
		}

	}

	static class ZeroTtl {

		@DistributedLocked(key = "k", ttl = "0s")
		public void work() {
		}

	}

	static class NegativeWaitTime {

		@DistributedLocked(key = "k", waitTime = "-5s")
		public void work() {
		}

	}

	static class MissingFallback {

		@DistributedLocked(key = "#id", fallbackMethod = "noSuchMethod")
		public String work(String id) {
			return id;
		}

	}

	static class UnknownParameter {

		@DistributedLocked(key = "#ordrId")
		public void work(long orderId) {
		}

	}

	static class PrivateMethod {

		public void run() {
			work();
		}

		@DistributedLocked(key = "k")
		private void work() {
		}

	}

	static class FinalMethod {

		@DistributedLocked(key = "k")
		public final void work() {
		}

	}

	static class SkipPrimitive {

		@DistributedLocked(key = "k", onFailure = LockFailurePolicy.SKIP)
		public int work() {
			return 1;
		}

	}

	static class HugeTtl {

		@DistributedLocked(key = "k", ttl = "300000000d")
		public void work() {
		}

	}

	static class UnitlessTtl {

		@DistributedLocked(key = "#orderId", ttl = "10")
		public void work(long orderId) {
		}

	}

	static class ShortTtl {

		@DistributedLocked(key = "k", ttl = "300ms")
		public void work() {
		}

	}

	static class ShortPlaceholderTtl {

		@DistributedLocked(key = "k", ttl = "${orders.short-ttl}")
		public void work() {
		}

	}

	static class MinimumTtl {

		@DistributedLocked(key = "k", ttl = "500ms")
		public void work() {
		}

	}

	static class ShortFixedLease {

		@DistributedLocked(key = "k", ttl = "10", autoRenew = false)
		public void work() {
		}

		@DistributedLocked(key = "k", ttl = "50ms", autoRenew = false)
		public void fixedLease() {
		}

	}

	static class AsyncMethod {

		@Async
		@DistributedLocked(key = "k")
		public void work() {
		}

		public Optional<String> other() {
			return Optional.empty();
		}

	}

	static class AsyncFutureMethod {

		@Async
		@DistributedLocked(key = "k")
		public Future<String> work() {
			return CompletableFuture.completedFuture("done");
		}

	}

	static class AsyncCompletableFutureMethod {

		@Async
		@DistributedLocked(key = "k")
		public CompletableFuture<String> work() {
			return CompletableFuture.completedFuture("done");
		}

	}

	static class CustomStageMethod {

		@DistributedLocked(key = "k")
		public CustomStage work() {
			return new CustomStage();
		}

	}

	static class CustomStage extends CompletableFuture<String> {

	}

	static class FairMonoMethod {

		@DistributedLocked(key = "k", fair = true)
		public Mono<String> work() {
			return Mono.just("done");
		}

	}

	static class MonoMethod {

		@DistributedLocked(key = "k")
		public Mono<String> work() {
			return Mono.just("done");
		}

	}

	static class CustomPublisherMethod {

		@DistributedLocked(key = "k")
		public CustomPublisher work() {
			return new CustomPublisher();
		}

	}

	static class CustomPublisher implements Publisher<String> {

		@Override
		public void subscribe(Subscriber<? super String> subscriber) {
			Mono.just("done").subscribe(subscriber);
		}

	}

	static class KeyAndKeys {

		@DistributedLocked(key = "#from", keys = "#to")
		public void transfer(long from, long to) {
		}

	}

	static class NoPermits {

		@DistributedLocked(key = "k", permits = 0)
		public void work() {
		}

	}

	static class ReadPermits {

		@DistributedLocked(key = "k", permits = 5, mode = LockMode.READ)
		public void work() {
		}

	}

	static class AsyncKeys {

		@DistributedLocked(keys = { "a", "b" })
		public CompletableFuture<Void> work() {
			return CompletableFuture.completedFuture(null);
		}

	}

}
