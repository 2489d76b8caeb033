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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.AnnotationLockOperationSource;
import io.distlock.interceptor.LockInterceptor;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for re-entry into a lock whose lease ran out by the local clock, on a
 * real redis-server with a second application that takes the key meanwhile: on every
 * blocking path the nested call fails and its code never runs, rather than run as if the
 * outer call still held the lock.
 */
@Timeout(60)
class LockTemplateReentryPastLeaseIntegrationTests {

	// Short enough to run out while the outer code waits for it.
	private static final Duration SHORT_TTL = Duration.ofMillis(300);

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack application;

	private LockStack otherApplication;

	@BeforeEach
	void createApplications() {
		this.application = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.otherApplication = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
	}

	@AfterEach
	void closeApplications() {
		this.application.close();
		this.otherApplication.close();
	}

	@Test
	void nestedExecuteAfterTheOuterUnrenewedLeaseRanOutFailsAndDoesNotRun() {
		AtomicBoolean ran = new AtomicBoolean();
		template().execute(unrenewed("k"), (outer) -> {
			try (LockHandle other = anotherOwnerTakesAfterExpiry("k")) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> template().execute(request("k"), (inner) -> ran.getAndSet(true)))
					.withMessageContaining("Lock 'k' cannot be re-entered")
					.withMessageContaining("ran out");
				assertThat(other.isHeld()).as("the other owner still holds the key").isTrue();
			}
			return null;
		});
		assertThat(ran).as("the nested code ran without the lock").isFalse();
	}

	@Test
	void nestedExecuteAllAfterTheOuterUnrenewedLeaseRanOutFailsAndDoesNotRun() {
		AtomicBoolean ran = new AtomicBoolean();
		template().execute(unrenewed("a"), (outer) -> {
			try (LockHandle other = anotherOwnerTakesAfterExpiry("a")) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> template().executeAll(MultiLockRequest.of(List.of("a", "b"), TTL, Duration.ZERO),
							(locks) -> ran.getAndSet(true)))
					.withMessageContaining("Lock 'a' cannot be re-entered");
				assertThat(other.isHeld()).isTrue();
			}
			return null;
		});
		assertThat(ran).as("the nested code ran without the lock").isFalse();
		assertThat(redis.endpoint().command("EXISTS", "lock:b")).as("no other key taken").isEqualTo(0L);
	}

	@Test
	void nestedExecuteAsyncAfterTheOuterUnrenewedLeaseRanOutFailsItsStageAndDoesNotRun() {
		AtomicBoolean ran = new AtomicBoolean();
		template().execute(unrenewed("k"), (outer) -> {
			try (LockHandle other = anotherOwnerTakesAfterExpiry("k")) {
				CompletableFuture<Boolean> nested = template().executeAsync(request("k"),
						(inner) -> CompletableFuture.completedFuture(ran.getAndSet(true)));
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> nested.get(10, TimeUnit.SECONDS))
					.withCauseInstanceOf(LockAcquisitionException.class);
				assertThat(other.isHeld()).isTrue();
			}
			return null;
		});
		assertThat(ran).as("the nested work ran without the lock").isFalse();
	}

	@Test
	void nestedAnnotatedMethodAfterTheOuterUnrenewedLeaseRanOutFailsAndDoesNotRun() {
		Orders orders = proxy(new Orders());
		template().execute(unrenewed("orders:42"), (outer) -> {
			try (LockHandle other = anotherOwnerTakesAfterExpiry("orders:42")) {
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.ship("42"))
					.withMessageContaining("Lock 'orders:42' cannot be re-entered");
				assertThat(other.isHeld()).isTrue();
			}
			return null;
		});
		assertThat(orders.shipped).as("the annotated method ran without the lock").isFalse();
	}

	@Test
	void nestedExecuteAfterARenewedLeaseRanOutBeforeItsNextRenewalFailsAndDoesNotRun() {
		MovableClock clock = new MovableClock();
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setClock(clock);
		scheduler.initialize();
		AtomicBoolean ran = new AtomicBoolean();
		try (LockStack paused = LockStack.on(redis.endpoint()).renewerScheduler(scheduler).build()) {
			// Renewed every 10s: no renewal is due while the test runs, so nothing but
			// the
			// lease's own expiry can stop the re-entry.
			LockRequest renewed = LockRequest.of("k", Duration.ofSeconds(30), Duration.ZERO);
			paused.template().execute(renewed, (outer) -> {
				// A pause (a long GC) past the lease: the key expired in Redis meanwhile,
				// and the renewer has not run since.
				clock.advance(Duration.ofSeconds(31));
				redis.endpoint().command("DEL", "lock:k");
				try (LockHandle other = this.otherApplication.template()
					.tryAcquire(LockRequest.of("k", TTL, Duration.ZERO))
					.orElseThrow()) {
					assertThatExceptionOfType(LockAcquisitionException.class)
						.isThrownBy(() -> paused.template().execute(renewed, (inner) -> ran.getAndSet(true)))
						.withMessageContaining("Lock 'k' cannot be re-entered");
					assertThat(other.isHeld()).isTrue();
				}
				return null;
			});
		}
		finally {
			scheduler.shutdown();
		}
		assertThat(ran).as("the nested code ran without the lock").isFalse();
	}

	@Test
	void nestedExecuteAfterAnExtendReentersUntilTheExtendedLeaseRunsOut() {
		MovableClock clock = new MovableClock();
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setClock(clock);
		scheduler.initialize();
		try (LockStack timed = LockStack.on(redis.endpoint()).renewerScheduler(scheduler).build()) {
			LockRequest unrenewed = LockRequest.of("k", Duration.ofSeconds(5), Duration.ZERO).withAutoRenew(false);
			timed.template().execute(unrenewed, (outer) -> {
				assertThat(outer.extend(Duration.ofSeconds(60), Duration.ZERO)).isTrue();
				clock.advance(Duration.ofSeconds(10));
				timed.template().execute(request("k"), (inner) -> {
					assertThat(inner).as("re-entered within the extended lease").isSameAs(outer);
					return null;
				});
				clock.advance(Duration.ofSeconds(60));
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> timed.template().execute(request("k"), (inner) -> null))
					.withMessageContaining("Lock 'k' cannot be re-entered");
				return null;
			});
		}
		finally {
			scheduler.shutdown();
		}
	}

	@Test
	void nestedExecuteWithinTheOuterLeaseReentersIt() {
		template().execute(request("k").withAutoRenew(false), (outer) -> template().execute(request("k"), (inner) -> {
			assertThat(inner).isSameAs(outer);
			return null;
		}));
	}

	private LockTemplate template() {
		return this.application.template();
	}

	/**
	 * Wait until the outer lock's key expired in Redis, then take it as another
	 * application.
	 */
	private LockHandle anotherOwnerTakesAfterExpiry(String key) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> redis.endpoint().command("EXISTS", "lock:" + key).equals(0L));
		return this.otherApplication.template().tryAcquire(LockRequest.of(key, TTL, Duration.ZERO)).orElseThrow();
	}

	private Orders proxy(Orders target) {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource(TTL, Duration.ZERO);
		ProxyFactory factory = new ProxyFactory(target);
		factory.setProxyTargetClass(true);
		factory.addAdvice(new LockInterceptor(source, this::template));
		return (Orders) factory.getProxy();
	}

	private static LockRequest unrenewed(String key) {
		return LockRequest.of(key, SHORT_TTL, Duration.ZERO).withAutoRenew(false);
	}

	private static LockRequest request(String key) {
		return LockRequest.of(key, TTL, Duration.ZERO);
	}

	static class Orders {

		volatile boolean shipped;

		@DistributedLocked(name = "orders", key = "#id")
		public void ship(String id) {
			this.shipped = true;
		}

	}

	/**
	 * The system clock, moved forward on demand.
	 */
	private static final class MovableClock extends Clock {

		private volatile Duration offset = Duration.ZERO;

		void advance(Duration duration) {
			this.offset = this.offset.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Instant instant() {
			return Instant.now().plus(this.offset);
		}

	}

}
