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

package io.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.LockHandle;
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.DistLockReactiveAutoConfiguration;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for the {@code locks} endpoint on a real redis-server.
 */
class LocksEndpointIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockReactiveAutoConfiguration.class, DistLockEndpointAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(), "management.endpoints.web.exposure.include=locks",
				"management.endpoint.locks.show-values=always");

	@Test
	void endpointIsNotCreatedUnlessExposed() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
					DistLockEndpointAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port())
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void locksListsWhatThisInstanceHoldsBlockingAndReactive() {
		this.contextRunner.run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			try (LockHandle order = template
				.tryAcquire(LockRequest.of("order:42", TTL, Duration.ZERO).withName("orders"))
				.orElseThrow()) {
				LocksEndpoint.HeldLocksDescriptor inside = context.getBean(ReactiveLockTemplate.class)
					.execute(LockRequest.of("stock:7", TTL, Duration.ZERO).withName("stock"),
							(lock) -> Mono.fromSupplier(() -> endpoint.locks(SecurityContext.NONE)))
					.block(Duration.ofSeconds(10));
				assertThat(inside.locks()).extracting(LocksEndpoint.HeldLockDescriptor::key)
					.containsExactly("order:42", "stock:7");
				LocksEndpoint.HeldLockDescriptor first = inside.locks().get(0);
				assertThat(first.name()).isEqualTo("orders");
				assertThat(first.fencingToken()).isEqualTo(order.fencingToken());
				assertThat(first.holder()).isEqualTo(Thread.currentThread().getName());
				assertThat(first.autoRenew()).isTrue();
				assertThat(first.mode()).isEqualTo(LockMode.EXCLUSIVE);
				assertThat(first.permits()).isEqualTo(1);
				assertThat(first.leaseRemaining()).isPositive().isLessThanOrEqualTo(TTL);
			}
			assertThat(endpoint.locks(SecurityContext.NONE).locks()).isEmpty();
		});
	}

	@Test
	void locksListsTheCallersWaitingForALockAndTheNamesWaitedOnLongest() {
		this.contextRunner.withPropertyValues("distlock.instance-name=billing-1").run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			LockRequest request = LockRequest.of("invoice:9", TTL, Duration.ofSeconds(30)).withName("invoices");
			LockHandle held = template.tryAcquire(LockRequest.of("invoice:9", TTL, Duration.ZERO)).orElseThrow();
			CompletableFuture<Boolean> waiter = CompletableFuture
				.supplyAsync(() -> template.execute(request, () -> true));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !endpoint.locks(SecurityContext.NONE).waiters().isEmpty());
			LocksEndpoint.HeldLocksDescriptor locks = endpoint.locks(SecurityContext.NONE);
			assertThat(locks.instance()).isEqualTo("billing-1");
			assertThat(locks.waiters()).singleElement().satisfies((waiting) -> {
				assertThat(waiting.key()).isEqualTo("invoice:9");
				assertThat(waiting.name()).isEqualTo("invoices");
				assertThat(waiting.thread()).isNotEqualTo(Thread.currentThread().getName());
			});
			assertThat(locks.mostWaitedOn()).singleElement().satisfies((row) -> assertThat(row.waitingNow()).isOne());
			held.close();
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
			LocksEndpoint.HeldLocksDescriptor after = endpoint.locks(SecurityContext.NONE);
			assertThat(after.waiters()).isEmpty();
			assertThat(after.mostWaitedOn()).singleElement().satisfies((row) -> {
				assertThat(row.name()).isEqualTo("invoices");
				assertThat(row.waitingNow()).isZero();
				assertThat(row.waits()).isOne();
			});
		});
	}

	@Test
	void waitersKeysAreMaskedUnlessShown() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.show-values=never").run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			LockHandle held = template.tryAcquire("secret:1", TTL, Duration.ZERO).orElseThrow();
			CompletableFuture<Object> waiter = CompletableFuture
				.supplyAsync(() -> template.execute("secret:1", TTL, Duration.ofSeconds(30), () -> "done"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !endpoint.locks(SecurityContext.NONE).waiters().isEmpty());
			assertThat(endpoint.locks(SecurityContext.NONE).waiters()).extracting(WaitingLockDescriptor::key)
				.containsExactly("******");
			held.close();
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo("done");
		});
	}

	@Test
	void lockAsksTheStoreAboutOneKeyHeldByAnyone() {
		this.contextRunner.run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			try (LockHandle order = context.getBean(LockTemplate.class)
				.tryAcquire("a/b:1", TTL, Duration.ZERO)
				.orElseThrow()) {
				LocksEndpoint.LockStateDescriptor state = state(endpoint, "a", "b:1");
				assertThat(state.key()).isEqualTo("a/b:1");
				assertThat(state.held()).isTrue();
				assertThat(state.remainingLease()).isPositive().isLessThanOrEqualTo(TTL);
				assertThat(state.lastFencingToken()).isEqualTo(order.fencingToken());
				assertThat(state.fairWaiters()).isZero();
				assertThat(state.readHolds()).isZero();
				assertThat(state.permitHolders()).isZero();
			}
			assertThat(state(endpoint, "a", "b:1").held()).isFalse();
		});
	}

	@Test
	void forceReleaseRemovesALockHeldByAnyone() {
		this.contextRunner.run((context) -> {
			ForceReleasingLocksEndpoint endpoint = context.getBean(ForceReleasingLocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			LockHandle stuck = template.tryAcquire("stuck", TTL, Duration.ZERO).orElseThrow();
			assertThat(forceRelease(endpoint, "stuck").released()).isTrue();
			assertThat(redis.endpoint().command("EXISTS", "lock:stuck")).isEqualTo(0L);
			try (LockHandle next = template.tryAcquire("stuck", TTL, Duration.ZERO).orElseThrow()) {
				assertThat(next.fencingToken()).isGreaterThan(stuck.fencingToken());
			}
			stuck.close();
			assertThat(forceRelease(endpoint, "stuck").released()).isFalse();
		});
	}

	@Test
	void locksShowTheModeAndPermitsOfEachHeldLock() {
		this.contextRunner.run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			try (LockHandle report = template
				.tryAcquire(LockRequest.of("report:1", TTL, Duration.ZERO).withMode(LockMode.READ))
				.orElseThrow();
					LockHandle export = template
						.tryAcquire(LockRequest.of("exports", TTL, Duration.ZERO).withPermits(5))
						.orElseThrow();
					LockHandle rebuild = template
						.tryAcquire(LockRequest.of("report:2", TTL, Duration.ZERO).withMode(LockMode.WRITE))
						.orElseThrow();
					LockHandle order = template.tryAcquire("order:1", TTL, Duration.ZERO).orElseThrow()) {
				assertThat(endpoint.locks(SecurityContext.NONE).locks())
					.extracting(LocksEndpoint.HeldLockDescriptor::key, LocksEndpoint.HeldLockDescriptor::mode,
							LocksEndpoint.HeldLockDescriptor::permits)
					.containsExactlyInAnyOrder(tuple("report:1", LockMode.READ, 1),
							tuple("exports", LockMode.EXCLUSIVE, 5), tuple("report:2", LockMode.WRITE, 1),
							tuple("order:1", LockMode.EXCLUSIVE, 1));
			}
		});
	}

	@Test
	void lockShowsHowManyReadHoldsAndPermitHoldersAKeyHasWhoeverTookThem() {
		this.contextRunner.run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			LockRequest read = LockRequest.of("report", TTL, Duration.ZERO).withMode(LockMode.READ);
			LockRequest permit = LockRequest.of("report", TTL, Duration.ZERO).withPermits(3);
			try (LockHandle firstReader = template.tryAcquire(read).orElseThrow();
					LockHandle secondReader = template.tryAcquire(read).orElseThrow();
					LockHandle permitHolder = template.tryAcquire(permit).orElseThrow()) {
				LocksEndpoint.LockStateDescriptor state = state(endpoint, "report");
				assertThat(state.key()).isEqualTo("report");
				assertThat(state.held()).as("the write lock").isFalse();
				assertThat(state.readHolds()).isEqualTo(2);
				assertThat(state.permitHolders()).isEqualTo(1);
				assertThat(state.lastFencingToken()).isEqualTo(permitHolder.fencingToken());
			}
			LocksEndpoint.LockStateDescriptor released = state(endpoint, "report");
			assertThat(released.readHolds()).isZero();
			assertThat(released.permitHolders()).isZero();
		});
	}

	@Test
	void forceReleaseFreesReadHoldsAndPermitsOfTheKey() {
		this.contextRunner.run((context) -> {
			ForceReleasingLocksEndpoint endpoint = context.getBean(ForceReleasingLocksEndpoint.class);
			LockTemplate template = context.getBean(LockTemplate.class);
			LockHandle reader = template
				.tryAcquire(LockRequest.of("report", TTL, Duration.ZERO).withMode(LockMode.READ))
				.orElseThrow();
			LockHandle permit = template.tryAcquire(LockRequest.of("report", TTL, Duration.ZERO).withPermits(2))
				.orElseThrow();
			// A second permit holder: the permits are full, so only a force-release lets
			// the
			// next one in.
			LockHandle secondPermit = template.tryAcquire(LockRequest.of("report", TTL, Duration.ZERO).withPermits(2))
				.orElseThrow();
			assertThat(forceRelease(endpoint, "report").released()).isTrue();
			LocksEndpoint.LockStateDescriptor state = state(endpoint, "report");
			assertThat(state.readHolds()).isZero();
			assertThat(state.permitHolders()).isZero();
			try (LockHandle writer = template
				.tryAcquire(LockRequest.of("report", TTL, Duration.ZERO).withMode(LockMode.WRITE))
				.orElseThrow();
					LockHandle nextPermit = template
						.tryAcquire(LockRequest.of("report", TTL, Duration.ZERO).withPermits(2))
						.orElseThrow()) {
				assertThat(nextPermit.fencingToken()).isGreaterThan(permit.fencingToken());
			}
			reader.close();
			permit.close();
			secondPermit.close();
		});
	}

	static LocksEndpoint.LockStateDescriptor state(LocksEndpoint endpoint, String... key) {
		WebEndpointResponse<?> response = endpoint.lock(SecurityContext.NONE, key);
		assertThat(response.getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		return (LocksEndpoint.LockStateDescriptor) response.getBody();
	}

	static ForceReleasingLocksEndpoint.ForceReleaseDescriptor forceRelease(ForceReleasingLocksEndpoint endpoint,
			String... key) {
		WebEndpointResponse<?> response = endpoint.forceRelease(SecurityContext.NONE, key);
		assertThat(response.getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		return (ForceReleasingLocksEndpoint.ForceReleaseDescriptor) response.getBody();
	}

}
