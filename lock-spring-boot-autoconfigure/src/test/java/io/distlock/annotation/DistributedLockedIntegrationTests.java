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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockAcquisitionException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Integration tests for {@link DistributedLocked} methods in a Spring Boot application on
 * a real redis-server, configured only through {@code spring.data.redis.*}.
 */
@SpringBootTest(classes = DistributedLockedIntegrationTests.TestApplication.class)
@DirtiesContext
class DistributedLockedIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
		registry.add("spring.data.redis.timeout", () -> "2s");
		registry.add("orders.lock-ttl", () -> "7s");
	}

	@Autowired
	private KeyedService keyed;

	@Autowired
	private BehaviourService behaviour;

	@Autowired
	private OuterService outer;

	@Autowired
	private LockTemplate lockTemplate;

	@Autowired
	private StringRedisTemplate redisTemplate;

	@Test
	void keyByParameterName() {
		assertThat(this.keyed.byName(42L)).isEqualTo("42");
	}

	@Test
	void keyByPosition() {
		assertThat(this.keyed.byPosition("a", "b")).isEqualTo("b");
		assertThat(this.keyed.byArgumentPosition("a", "b")).isEqualTo("a");
	}

	@Test
	void keyByPropertyPath() {
		assertThat(this.keyed.byPropertyPath(new Order(7, new Customer("c-9")))).isEqualTo("c-9");
	}

	@Test
	void keyByConcatenation() {
		assertThat(this.keyed.byConcatenation("sku-1")).isEqualTo("inv:sku-1");
	}

	@Test
	void keyByBeanReference() {
		assertThat(this.keyed.byBean(new Order(7, new Customer("c-9")))).isEqualTo("order-7");
	}

	@Test
	void keyByRootObject() {
		assertThat(this.keyed.byMethodName()).isEqualTo("byMethodName");
		assertThat(this.keyed.byTargetClass()).isEqualTo("KeyedService");
	}

	@Test
	void literalKey() {
		assertThat(this.keyed.literal()).isEqualTo("reports");
	}

	@Test
	void nameIsPutBeforeTheKeyAndTheRedisKeyCarriesThePrefix() {
		assertThat(this.keyed.named(5)).isEqualTo("orders:5");
		assertThat(this.keyed.lastRedisKeyExisted()).isTrue();
	}

	@Test
	void emptyKeyLocksTheMethod() {
		assertThat(this.keyed.wholeMethod()).isEqualTo(KeyedService.class.getName() + ".wholeMethod");
	}

	@Test
	void ttlFromPlaceholderIsUsed() {
		long pttl = this.keyed.placeholderTtl();
		assertThat(pttl).isBetween(6_000L, 7_000L);
	}

	@Test
	void lockIsReleasedAfterTheCall() {
		this.keyed.byName(42L);
		assertThat(this.redisTemplate.hasKey("lock:42")).isFalse();
	}

	@Test
	void lockContextGivesTheFencingTokenAndIsEmptyOutside() {
		long first = this.behaviour.fencingToken();
		long second = this.behaviour.fencingToken();
		assertThat(second).isGreaterThan(first);
		assertThat(LockContext.current()).isEmpty();
	}

	@Test
	void methodExceptionReachesTheCallerUnchangedAndTheLockIsReleased() {
		IllegalStateException failure = new IllegalStateException("boom");
		assertThatIllegalStateException().isThrownBy(() -> this.behaviour.failWith(failure)).isSameAs(failure);
		assertThat(this.redisTemplate.hasKey("lock:failing")).isFalse();
	}

	@Test
	void busyLockFailsFastWithZeroWaitTimeAndTheMethodDoesNotRun() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(this.behaviour::busyNoWait)
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("busy"));
			assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(1));
		}
		assertThat(this.behaviour.runs()).hasValue(0);
	}

	@Test
	void busyLockIsWaitedForForTheWaitTime() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(this.behaviour::busyWaiting)
				.satisfies((ex) -> assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(300)));
			assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
		}
		assertThat(this.behaviour.runs()).hasValue(0);
	}

	@Test
	void busyLockMessageNamesTheKeyTheMethodAndItsConfiguredWaitTimeAndHowToWaitLonger() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			String ownerToken = ownerTokenOf("lock:busy");
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(this.behaviour::busyWaiting)
				.satisfies((ex) -> {
					assertThat(ex.getKey()).isEqualTo("busy");
					assertThat(ex.getHolder()).isNotNull();
				})
				.withMessageStartingWith("Lock 'busy' of DistributedLockedIntegrationTests.BehaviourService"
						+ ".busyWaiting() was not acquired within its wait time of 300ms (waited ")
				.withMessageContaining("): held by instance '")
				.withMessageEndingWith(". To wait longer, raise waitTime (now '300ms') on @DistributedLocked of "
						+ "DistributedLockedIntegrationTests.BehaviourService.busyWaiting()")
				.withMessageNotContaining(ownerToken);
		}
	}

	@Test
	void busyLockMessageOfANamedLockWithTheDefaultWaitTimeNamesTheMethodAndTheProperty() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("payments:7", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> this.behaviour.pay(7))
				.withMessageStartingWith("Lock 'payments:7' of payments (DistributedLockedIntegrationTests"
						+ ".BehaviourService.pay(long)) was not acquired at once (wait time 0, waited ")
				.withMessageEndingWith(". To wait for the holder, raise waitTime on @DistributedLocked of "
						+ "DistributedLockedIntegrationTests.BehaviourService.pay(long), or "
						+ "distlock.default-wait-time, which it uses as it gives no waitTime");
		}
		assertThat(this.behaviour.runs()).hasValue(0);
	}

	@Test
	void busyLockWithSkipReturnsNullOrEmptyWithoutRunning() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.behaviour.busySkipped()).isNull();
			assertThat(this.behaviour.busySkippedOptional()).isEmpty();
		}
		assertThat(this.behaviour.runs()).hasValue(0);
	}

	@Test
	void busyLockWithFallbackCallsTheFallbackWithTheArguments() {
		try (LockHandle holder = this.lockTemplate.tryAcquire("busy", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.behaviour.busyWithFallback("x")).isEqualTo("fallback x");
		}
		assertThat(this.behaviour.runs()).hasValue(0);
	}

	@Test
	void keyEvaluatingToNullFailsTheCallNamingMethodAndExpression() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.keyed.byName(null))
			.withMessageContaining("'#orderId'")
			.withMessageContaining("byName")
			.withMessageContaining("evaluated to null");
	}

	@Test
	void nestedCallOnTheSameKeyReentersWithoutASecondAcquisition() {
		long acquiredBefore = this.lockTemplate.getEngine().getStatistics().getAcquired();
		boolean sameHandle = this.outer.outer(3);
		assertThat(sameHandle).isTrue();
		assertThat(this.lockTemplate.getEngine().getStatistics().getAcquired() - acquiredBefore).isEqualTo(1);
		assertThat(this.redisTemplate.hasKey("lock:account:3")).isFalse();
	}

	@Test
	void innerLockOnAnotherKeyIsInnermostInTheContext() {
		assertThat(this.outer.outerThenOther(3)).containsExactly("account:3", "other:3", "account:3");
	}

	@Test
	void sixteenThreadsThroughTheAnnotatedMethodNeverOverlap() throws Exception {
		int threads = 16;
		int perThread = 30;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						this.behaviour.increment();
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.behaviour.overlaps()).hasValue(0);
		assertThat(this.behaviour.counter()).hasValue(threads * perThread);
	}

	@Test
	void autoRenewKeepsTheLockWhileALongMethodRuns() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<?> work = executor.submit(() -> this.behaviour.longWork(2000));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
			while (!Boolean.TRUE.equals(this.redisTemplate.hasKey("lock:long")) && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			boolean stolen = false;
			// Three times the ttl of 500ms, the shortest renewed one, while the method
			// still runs.
			long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
			while (System.nanoTime() < end) {
				stolen |= this.lockTemplate.tryAcquire("long", Duration.ofSeconds(10), Duration.ZERO).isPresent();
				Thread.sleep(20);
			}
			work.get(10, TimeUnit.SECONDS);
			assertThat(stolen).isFalse();
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void withoutAutoRenewTheLockExpiresWhileALongMethodRuns() {
		assertThat(this.behaviour.fixedLeaseOutlived(600)).isFalse();
	}

	private static String ownerTokenOf(String redisKey) {
		String stored = (String) redis.endpoint().command("GET", redisKey);
		assertThat(stored).isNotNull();
		return (stored.indexOf('\u001F') >= 0) ? stored.substring(0, stored.indexOf('\u001F')) : stored;
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	record Customer(String id) {
	}

	record Order(long id, Customer customer) {
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		KeyedService keyedService(StringRedisTemplate redis) {
			return new KeyedService(redis);
		}

		@Bean
		BehaviourService behaviourService() {
			return new BehaviourService();
		}

		@Bean
		InnerService innerService() {
			return new InnerService();
		}

		@Bean
		OuterService outerService(InnerService inner) {
			return new OuterService(inner);
		}

		@Bean
		Keys keys() {
			return new Keys();
		}

	}

	static class Keys {

		public String forOrder(Order order) {
			return "order-" + order.id();
		}

	}

	static class KeyedService {

		private final StringRedisTemplate redis;

		private volatile boolean lastRedisKeyExisted;

		KeyedService(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@DistributedLocked(key = "#orderId")
		public String byName(Long orderId) {
			return current();
		}

		@DistributedLocked(key = "#p1")
		public String byPosition(String first, String second) {
			return current();
		}

		@DistributedLocked(key = "#a0")
		public String byArgumentPosition(String first, String second) {
			return current();
		}

		@DistributedLocked(key = "#order.customer.id")
		public String byPropertyPath(Order order) {
			return current();
		}

		@DistributedLocked(key = "'inv:' + #sku")
		public String byConcatenation(String sku) {
			return current();
		}

		@DistributedLocked(key = "@keys.forOrder(#o)")
		public String byBean(Order o) {
			return current();
		}

		@DistributedLocked(key = "#root.methodName")
		public String byMethodName() {
			return current();
		}

		@DistributedLocked(key = "#root.targetClass.simpleName")
		public String byTargetClass() {
			return current();
		}

		@DistributedLocked(key = "reports")
		public String literal() {
			return current();
		}

		@DistributedLocked(name = "orders", key = "#id")
		public String named(long id) {
			this.lastRedisKeyExisted = Boolean.TRUE.equals(this.redis.hasKey("lock:orders:" + id));
			return current();
		}

		@DistributedLocked
		public String wholeMethod() {
			return current();
		}

		@DistributedLocked(key = "ttl", ttl = "${orders.lock-ttl}", autoRenew = false)
		public long placeholderTtl() {
			return this.redis.getExpire("lock:ttl", TimeUnit.MILLISECONDS);
		}

		// Fields of a class-based proxy are not the target's: read state through methods.
		public boolean lastRedisKeyExisted() {
			return this.lastRedisKeyExisted;
		}

		private static String current() {
			return LockContext.current().orElseThrow().key();
		}

	}

	static class BehaviourService {

		private final AtomicInteger runs = new AtomicInteger();

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger overlaps = new AtomicInteger();

		private final AtomicInteger counter = new AtomicInteger();

		public AtomicInteger runs() {
			return this.runs;
		}

		public AtomicInteger overlaps() {
			return this.overlaps;
		}

		public AtomicInteger counter() {
			return this.counter;
		}

		@DistributedLocked(key = "token")
		public long fencingToken() {
			return LockContext.current().orElseThrow().fencingToken();
		}

		@DistributedLocked(key = "failing")
		public void failWith(RuntimeException failure) {
			throw failure;
		}

		@DistributedLocked(key = "busy", waitTime = "0s")
		public void busyNoWait() {
			this.runs.incrementAndGet();
		}

		@DistributedLocked(key = "busy", waitTime = "300ms")
		public void busyWaiting() {
			this.runs.incrementAndGet();
		}

		@DistributedLocked(name = "payments", key = "#orderId")
		public void pay(long orderId) {
			this.runs.incrementAndGet();
		}

		@DistributedLocked(key = "busy", onFailure = LockFailurePolicy.SKIP)
		public String busySkipped() {
			this.runs.incrementAndGet();
			return "ran";
		}

		@DistributedLocked(key = "busy", onFailure = LockFailurePolicy.SKIP)
		public Optional<String> busySkippedOptional() {
			this.runs.incrementAndGet();
			return Optional.of("ran");
		}

		@DistributedLocked(key = "busy", fallbackMethod = "fallback")
		public String busyWithFallback(String argument) {
			this.runs.incrementAndGet();
			return "ran";
		}

		String fallback(String argument) {
			return "fallback " + argument;
		}

		@DistributedLocked(key = "counter", waitTime = "60s")
		public void increment() {
			if (this.inside.incrementAndGet() != 1) {
				this.overlaps.incrementAndGet();
			}
			int value = this.counter.get();
			Thread.yield();
			this.counter.set(value + 1);
			this.inside.decrementAndGet();
		}

		@DistributedLocked(key = "long", ttl = "500ms")
		public void longWork(long millis) {
			sleep(millis);
		}

		@DistributedLocked(key = "fixed", ttl = "300ms", autoRenew = false)
		public boolean fixedLeaseOutlived(long millis) {
			sleep(millis);
			return LockContext.current().orElseThrow().isHeld();
		}

	}

	static class OuterService {

		private final InnerService inner;

		OuterService(InnerService inner) {
			this.inner = inner;
		}

		@DistributedLocked(name = "account", key = "#id")
		public boolean outer(long id) {
			LockHandle handle = LockContext.current().orElseThrow();
			return this.inner.sameAccount(id) == handle;
		}

		@DistributedLocked(name = "account", key = "#id")
		public List<String> outerThenOther(long id) {
			List<String> keys = new ArrayList<>();
			keys.add(LockContext.current().orElseThrow().key());
			keys.add(this.inner.other(id));
			keys.add(LockContext.current().orElseThrow().key());
			return keys;
		}

	}

	static class InnerService {

		@DistributedLocked(name = "account", key = "#id", waitTime = "0s")
		public LockHandle sameAccount(long id) {
			return LockContext.current().orElseThrow();
		}

		@DistributedLocked(name = "other", key = "#id")
		public String other(long id) {
			return LockContext.current().orElseThrow().key();
		}

	}

}
