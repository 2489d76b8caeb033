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

package io.distlock.aspectj.tests;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.LockAcquisitionException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.aspectj.DistributedLockedAspect;
import io.distlock.aspectj.LockAspectConfigurer;
import io.distlock.aspectj.tests.unwoven.LedgerService;
import io.distlock.interceptor.InvalidLockOperationException;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.test.StepVerifier;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code distlock.aop.mode=aspectj} with {@link RefundService} woven at compile time by
 * the AspectJ Maven plugin (lock-aspectj as an aspect library), on a real redis-server:
 * each locked method reports the lock its thread holds and whether Redis holds it while
 * it runs.
 */
class DistributedLockedAspectIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private ConfigurableApplicationContext context;

	private RefundService refunds;

	private LockTemplate template;

	@BeforeEach
	void start() {
		this.context = application(WovenApplication.class).run();
		this.refunds = this.context.getBean(RefundService.class);
		this.template = this.context.getBean(LockTemplate.class);
	}

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void aCallFromInsideTheClassIsLockedInRedisAndInTheLockContext() {
		this.refunds.refundAll(List.of(1L, 2L));

		assertThat(this.refunds.seen).containsExactly("refund:1 held=true", "refund:2 held=true");
		assertThat(this.template.getEngine().inspect("refund:1").held()).isFalse();
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void aPrivateMethodCalledFromInsideTheClassIsLocked() {
		assertThat(this.refunds.settleThroughPrivate(3)).isEqualTo("settle:3 held=true");
		assertThat(this.template.getEngine().inspect("settle:3").held()).isFalse();
	}

	@Test
	void aFinalMethodIsLocked() {
		assertThat(this.refunds.close(4)).isEqualTo("close:4 held=true");
	}

	@Test
	void theWovenBeanIsNotAlsoProxied() {
		assertThat(AopUtils.isAopProxy(this.refunds)).isFalse();
		assertThat(this.context.getBeanNamesForType(io.distlock.interceptor.LockAdvisor.class)).isEmpty();
	}

	@Test
	void aBusyLockThrowsSkipsOrFallsBackByTheFailurePolicy() {
		LockHandle other = this.template.tryAcquire("busy:5", Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		try {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> this.refunds.throwing(5))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("busy:5"));
			assertThat(this.refunds.skipping(5)).isNull();
			assertThat(this.refunds.fallingBack(5)).isEqualTo("fallback 5");
		}
		finally {
			other.close();
		}
		assertThat(this.refunds.throwing(5)).isEqualTo("busy:5 held=true");
	}

	@Test
	void anAsyncMethodHoldsItsLockUntilItsStageCompletes() throws Exception {
		CompletableFuture<Void> gate = new CompletableFuture<>();
		CompletableFuture<String> result = this.refunds.async(6, gate);
		assertThat(this.template.getEngine().inspect("async:6").held()).isTrue();

		gate.complete(null);

		assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("async:6 held=true");
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> !this.template.getEngine().inspect("async:6").held());
	}

	@Test
	void anAsyncMethodWhoseLockIsBusyReturnsAFailedStage() {
		LockHandle other = this.template.tryAcquire("busy:7", Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		try {
			assertThat(this.refunds.asyncThrowing(7)).failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockAcquisitionException.class);
		}
		finally {
			other.close();
		}
	}

	@Test
	void reactiveMethodsAreLockedOnSubscriptionWhileTheirPublisherRuns() {
		StepVerifier.create(this.refunds.mono(8)).expectNext("mono:8 held=true").verifyComplete();
		StepVerifier.create(this.refunds.flux(9)).expectNext("flux:9 held=true", "flux:9 held=true").verifyComplete();
		assertThat(this.template.getEngine().inspect("mono:8").held()).isFalse();
		assertThat(this.template.getEngine().inspect("flux:9").held()).isFalse();
	}

	@Test
	void aReactiveMethodWhoseLockIsBusyErrorsOrSkipsByTheFailurePolicy() {
		LockHandle other = this.template.tryAcquire("busy:10", Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
		try {
			StepVerifier.create(this.refunds.monoThrowing(10)).verifyError(LockAcquisitionException.class);
			StepVerifier.create(this.refunds.fluxSkipping(10)).verifyComplete();
		}
		finally {
			other.close();
		}
	}

	@Test
	void aWovenMethodCalledOnceTheContextIsClosedFailsInsteadOfRunningUnlocked() {
		this.context.close();
		this.context = null;

		assertThatIllegalStateException().isThrownBy(() -> this.refunds.close(11))
			.withMessageContaining("not configured")
			.withMessageContaining("distlock.aop.mode=aspectj");
	}

	@Test
	void theAspectIsTheSingletonThatTheContextConfigured() {
		assertThat(this.context.getBean(LockAspectConfigurer.class).getAspect())
			.isSameAs(DistributedLockedAspect.aspectOf());
		// Configured for this context's beans, not through its own setters.
		assertThat(DistributedLockedAspect.aspectOf().getLockOperationSource()).isNull();
	}

	@Test
	void aClassThatWasNotWovenFailsTheStartupNamingTheClass() {
		this.context.close();
		this.context = null;

		assertThatExceptionOfType(Exception.class).isThrownBy(() -> application(UnwovenApplication.class).run())
			.havingRootCause()
			.isInstanceOf(InvalidLockOperationException.class)
			.withMessageContaining(LedgerService.class.getName())
			.withMessageContaining("not woven")
			.withMessageContaining("-javaagent");
	}

	static SpringApplicationBuilder application(Class<?> type) {
		return new SpringApplicationBuilder(type).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.main.banner-mode=off",
					"distlock.aop.mode=aspectj");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WovenApplication {

		@Bean
		RefundService refundService(LockTemplate template) {
			return new RefundService(template);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class UnwovenApplication {

		@Bean
		LedgerService ledgerService(LockTemplate template) {
			return new LedgerService(template);
		}

	}

}
