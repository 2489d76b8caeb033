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

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.store.LockHolder;
import io.distlock.store.LockState;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests for the holder's description that every lock keeps in a real
 * redis-server: written by the acquisition itself, named by the busy
 * {@link LockAcquisitionException} of another application from its own failed attempt,
 * listed by {@link LockTemplate#inspect(String)} on any instance for exclusive locks,
 * read holds and permits, gone with the lock, and never holding the owner's secret.
 */
@Timeout(60)
class LockTemplateHolderIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack first;

	private LockStack second;

	private LockTemplate firstTemplate;

	private LockTemplate secondTemplate;

	private final ExecutorService checkoutThread = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task);
		thread.setName("checkout-worker");
		return thread;
	});

	@BeforeEach
	void createApplications() {
		this.first = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.firstTemplate = this.first.template(LockSettings.builder().instanceName("orders-1").build());
		this.second = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.secondTemplate = this.second.template(LockSettings.builder().instanceName("orders-2").build());
	}

	@AfterEach
	void closeApplications() {
		this.checkoutThread.shutdownNow();
		this.first.close();
		this.second.close();
	}

	@Test
	void busyExceptionNamesTheHolderInstanceThreadAndLockFromTheFailedAttemptsReply() throws Exception {
		Instant before = Instant.now();
		LockHandle held = onCheckoutThread(() -> this.firstTemplate
			.tryAcquire(
					LockRequest.builder("order:42").ttl(TTL).waitTime(Duration.ZERO).name("OrderService.pay").build())
			.orElseThrow());
		Instant after = Instant.now();

		LockRequest request = LockRequest.builder("order:42")
			.ttl(TTL)
			.waitTime(Duration.ZERO)
			.name("OrderService.refund")
			.build();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.secondTemplate.execute(request, () -> "ran"))
			.satisfies((busy) -> {
				LockHolder holder = busy.getHolder();
				assertThat(holder).isNotNull();
				assertThat(holder.instance()).isEqualTo("orders-1");
				assertThat(holder.thread()).isEqualTo("checkout-worker");
				assertThat(holder.name()).isEqualTo("OrderService.pay");
				assertThat(holder.acquiredAt()).isBetween(before.minusMillis(1), after.plusMillis(1));
				assertThat(busy.getMessage())
					.contains("Lock 'order:42' of OrderService.refund", "at once (wait time 0",
							"held by instance 'orders-1', thread 'checkout-worker' for " + "OrderService.pay since "
									+ holder.acquiredAt(),
							"To wait for the holder, give a wait time", "waitTime on @DistributedLocked")
					.doesNotContain(secretOf("lock:order:42"));
			});
		held.close();
	}

	@Test
	void busyExceptionAfterAWaitSaysTheWaitTimeAndNamesTheHolder() throws Exception {
		LockHandle held = onCheckoutThread(
				() -> this.firstTemplate.tryAcquire("report", TTL, Duration.ZERO).orElseThrow());
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.secondTemplate.execute("report", TTL, Duration.ofMillis(200), () -> "ran"))
			.satisfies((busy) -> {
				assertThat(busy.getHolder()).isNotNull();
				assertThat(busy.getHolder().instance()).isEqualTo("orders-1");
				assertThat(busy.getHolder().name()).isEmpty();
				assertThat(busy.getMessage()).contains("within its wait time of 200ms (waited ",
						"held by instance 'orders-1', thread 'checkout-worker' since ",
						"To wait longer, give a longer wait time: LockRequest.Builder.waitTime(Duration), or waitTime "
								+ "on @DistributedLocked (distlock.default-wait-time for the methods that give none)");
			});
		held.close();
	}

	@Test
	void inspectOnAnotherInstanceNamesTheExclusiveHolderUntilItReleases() throws Exception {
		LockHandle held = onCheckoutThread(() -> this.firstTemplate
			.tryAcquire(
					LockRequest.builder("order:7").ttl(TTL).waitTime(Duration.ZERO).name("OrderService.pay").build())
			.orElseThrow());

		LockState state = this.secondTemplate.getEngine().inspect("order:7");

		assertThat(state.holdings()).singleElement().satisfies((holding) -> {
			assertThat(holding.kind()).isEqualTo(LockState.Kind.EXCLUSIVE);
			assertThat(holding.id()).isEqualTo(state.holder()).hasSize(16);
			assertThat(holding.holder()).isNotNull();
			assertThat(holding.holder().instance()).isEqualTo("orders-1");
			assertThat(holding.holder().thread()).isEqualTo("checkout-worker");
			assertThat(holding.holder().name()).isEqualTo("OrderService.pay");
			assertThat(holding.remainingLease()).isPositive().isLessThanOrEqualTo(TTL);
		});
		assertThat(state.toString()).doesNotContain(secretOf("lock:order:7"));
		held.close();
		assertThat(this.secondTemplate.getEngine().inspect("order:7").holdings()).isEmpty();
		assertThat(redis.server(0).command("EXISTS", "lock:order:7")).isEqualTo(0L);
	}

	@Test
	void readHoldsAreEachNamedAndAWriterKeptOutNamesAReader() throws Exception {
		LockRequest read = LockRequest.builder("catalog")
			.ttl(TTL)
			.waitTime(Duration.ZERO)
			.mode(LockMode.READ)
			.name("Catalog.show")
			.build();
		LockHandle onCheckout = onCheckoutThread(() -> this.firstTemplate.tryAcquire(read).orElseThrow());
		LockHandle onMain = this.firstTemplate.tryAcquire(read).orElseThrow();

		LockState state = this.secondTemplate.getEngine().inspect("catalog");
		assertThat(state.readHolds()).isEqualTo(2);
		assertThat(state.holdings()).hasSize(2).allSatisfy((holding) -> {
			assertThat(holding.kind()).isEqualTo(LockState.Kind.READ);
			assertThat(holding.holder().instance()).isEqualTo("orders-1");
			assertThat(holding.holder().name()).isEqualTo("Catalog.show");
		});
		assertThat(state.holdings()).extracting((holding) -> holding.holder().thread())
			.containsExactlyInAnyOrder("checkout-worker", Thread.currentThread().getName());
		assertThat(state.holdings()).extracting(LockState.Holding::id).doesNotHaveDuplicates();

		LockRequest write = LockRequest.builder("catalog")
			.ttl(TTL)
			.waitTime(Duration.ZERO)
			.name("Catalog.edit")
			.build();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.secondTemplate.execute(write, () -> "ran"))
			.satisfies((busy) -> assertThat(busy.getHolder().instance()).isEqualTo("orders-1"));
		onCheckout.close();
		onMain.close();
	}

	@Test
	void permitHoldersAreEachNamedAndAFullKeyNamesOneOfThem() throws Exception {
		LockRequest permit = LockRequest.builder("exports")
			.ttl(TTL)
			.waitTime(Duration.ZERO)
			.permits(2)
			.name("Exports.run")
			.build();
		LockHandle onCheckout = onCheckoutThread(() -> this.firstTemplate.tryAcquire(permit).orElseThrow());
		LockHandle onMain = this.firstTemplate.tryAcquire(permit).orElseThrow();

		LockState state = this.secondTemplate.getEngine().inspect("exports");
		assertThat(state.permitHolders()).isEqualTo(2);
		assertThat(state.holdings()).hasSize(2)
			.allSatisfy((holding) -> assertThat(holding.kind()).isEqualTo(LockState.Kind.PERMIT))
			.extracting((holding) -> holding.holder().thread())
			.containsExactlyInAnyOrder("checkout-worker", Thread.currentThread().getName());

		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.secondTemplate.execute(permit, () -> "ran"))
			.satisfies((busy) -> {
				assertThat(busy.getHolder().instance()).isEqualTo("orders-1");
				assertThat(busy.getHolder().name()).isEqualTo("Exports.run");
			});
		onCheckout.close();
		onMain.close();
	}

	@Test
	void busyKeyOfSeveralIsNamedWithItsHolder() throws Exception {
		LockHandle held = onCheckoutThread(
				() -> this.firstTemplate.tryAcquire("stock:b", TTL, Duration.ZERO).orElseThrow());
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(
				() -> this.secondTemplate.executeAll(List.of("stock:a", "stock:b"), TTL, Duration.ZERO, () -> "ran"))
			.satisfies((busy) -> {
				assertThat(busy.getKey()).isEqualTo("stock:b");
				assertThat(busy.getHolder().thread()).isEqualTo("checkout-worker");
				assertThat(busy.getMessage()).contains("lock 'stock:b' stayed busy, held by instance 'orders-1'");
			});
		held.close();
	}

	@Test
	void holderDescriptionIsBoundedAndFreeOfControlCharactersWhateverTheThreadIsCalled() throws Exception {
		ExecutorService oddlyNamed = Executors
			.newSingleThreadExecutor((task) -> new Thread(task, "\u001F" + "T".repeat(1000) + "\nend"));
		try {
			LockHandle held = oddlyNamed.submit(() -> this.firstTemplate.tryAcquire("long", TTL, Duration.ZERO))
				.get(10, TimeUnit.SECONDS)
				.orElseThrow();
			String stored = (String) redis.server(0).command("GET", "lock:long");
			assertThat(stored.length()).isLessThan(200);
			assertThat(stored.chars().filter((c) -> c == LockHolder.SEPARATOR)).hasSize(4);
			LockHolder holder = this.secondTemplate.getEngine().inspect("long").holdings().get(0).holder();
			assertThat(holder.instance()).isEqualTo("orders-1");
			assertThat(holder.thread()).hasSize(LockHolder.MAX_THREAD_LENGTH).matches("\\?T+");
			held.close();
		}
		finally {
			oddlyNamed.shutdownNow();
		}
	}

	@Test
	void withoutHolderDescriptionsTheStoreKeepsTheBareTokenAndNamesNoHolder() throws Exception {
		LockTemplate bare = this.first
			.template(LockSettings.builder().instanceName("orders-1").describeHolders(false).build());
		LockHandle held = onCheckoutThread(() -> bare.tryAcquire("plain", TTL, Duration.ZERO).orElseThrow());
		assertThat((String) redis.server(0).command("GET", "lock:plain")).doesNotContain("\u001F").hasSize(36);
		assertThat(this.secondTemplate.getEngine().inspect("plain").holdings()).singleElement()
			.satisfies((holding) -> assertThat(holding.holder()).isNull());
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.secondTemplate.execute("plain", TTL, Duration.ZERO, () -> "ran"))
			.satisfies((busy) -> {
				assertThat(busy.getHolder()).isNull();
				assertThat(busy.getMessage()).contains("held by another owner");
			});
		held.close();
	}

	private <T> T onCheckoutThread(Callable<T> task) throws Exception {
		return this.checkoutThread.submit(task).get(10, TimeUnit.SECONDS);
	}

	// The owner's secret: what comes before the description in the stored owner token.
	private static String secretOf(String lockKey) {
		String stored = (String) redis.server(0).command("GET", lockKey);
		assertThat(stored).contains("\u001F");
		return stored.substring(0, stored.indexOf('\u001F'));
	}

}
