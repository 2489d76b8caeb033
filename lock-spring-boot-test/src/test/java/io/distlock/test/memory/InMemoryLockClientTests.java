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

package io.distlock.test.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockHolder;
import io.distlock.store.LockState;
import io.distlock.waiting.LockWaiter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InMemoryLockClient} beyond the contract suites: the injected clock and
 * the wake-ups of local waiters.
 */
class InMemoryLockClientTests {

	private final MovableClock clock = new MovableClock();

	private final InMemoryLockClient client = new InMemoryLockClient(this.clock);

	@Test
	void leaseRunsOutWhenTheInjectedClockPassesItsTtlWithoutAnySleep() {
		this.client.tryAcquire("k", "first", Duration.ofMinutes(5));
		this.clock.advance(Duration.ofMinutes(5).minusMillis(1));
		assertThat(this.client.tryAcquire("k", "second", Duration.ofMinutes(5)))
			.isEqualTo(new AcquireResult.Busy(Duration.ofMillis(1)));
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.client.isHeld("k", "first")).isFalse();
		assertThat(this.client.tryAcquire("k", "second", Duration.ofMinutes(5)))
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void releaseWakesAWaiterParkedByTheTemplateLongBeforeItsBackoff() throws Exception {
		LockWaiter waiter = new LockWaiter(Duration.ofMinutes(1), Duration.ofMinutes(1));
		InMemoryLockClient client = new InMemoryLockClient();
		client.setLockWaiter(waiter);
		LockTemplate template = new LockTemplate(client, waiter);
		LockHandle holder = template.tryAcquire("k", Duration.ofMinutes(1), Duration.ZERO).orElseThrow();
		CompletableFuture<Long> next = CompletableFuture
			.supplyAsync(() -> template.tryAcquire("k", Duration.ofMinutes(1), Duration.ofMinutes(1))
				.map(LockHandle::fencingToken)
				.orElseThrow());
		while (!waiter.isWaitedFor("lock:k")) {
			Thread.onSpinWait();
		}
		holder.close();
		// Without the wake-up the waiter would sleep out its one-minute backoff.
		assertThat(next.get(10, TimeUnit.SECONDS)).isGreaterThan(holder.fencingToken());
	}

	@Test
	void busyAnswerAndInspectionNameTheHolderThatItsOwnerTokenDescribesButNeverItsSecret() {
		LockHolder holder = new LockHolder("orders-1", "checkout-worker", "Checkout.pay", Instant.ofEpochMilli(42));
		this.client.tryAcquire("k", holder.ownerToken("secret-owner"), Duration.ofSeconds(10));
		this.client.tryAcquirePermit("p", holder.ownerToken("secret-permit"), Duration.ofSeconds(10), 1);

		assertThat(this.client.tryAcquire("k", "other", Duration.ofSeconds(10)))
			.isEqualTo(new AcquireResult.Busy(Duration.ofSeconds(10), false, holder));
		assertThat(this.client.tryAcquirePermit("p", "other", Duration.ofSeconds(10), 1))
			.isEqualTo(new AcquireResult.Busy(Duration.ofSeconds(10), false, holder));
		LockState state = this.client.inspect("k");
		assertThat(state.holdings()).singleElement().satisfies((holding) -> {
			assertThat(holding.kind()).isEqualTo(LockState.Kind.EXCLUSIVE);
			assertThat(holding.holder()).isEqualTo(holder);
		});
		assertThat(state.toString()).doesNotContain("secret-owner");
		assertThat(this.client.inspect("p").holdings()).singleElement()
			.satisfies((holding) -> assertThat(holding.kind()).isEqualTo(LockState.Kind.PERMIT))
			.satisfies((holding) -> assertThat(holding.id()).hasSize(16).doesNotContain("secret"));
	}

	@Test
	void inspectionNamesTheHolderWithoutItsOwnerToken() {
		this.client.tryAcquire("k", "secret-owner", Duration.ofSeconds(10));
		assertThat(this.client.inspect("k").toString()).doesNotContain("secret-owner");
	}

	/**
	 * A clock that stands still until a test moves it.
	 */
	static final class MovableClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
