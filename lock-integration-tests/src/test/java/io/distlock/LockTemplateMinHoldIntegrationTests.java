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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for the minimum hold time of {@link LockRequest#minHold()} against a
 * real redis-server: a lock released before its minimum hold time stays in Redis until
 * then, and another application (a second template on connections of its own) gets it
 * only afterwards. The times asserted are lower bounds that the lock's lease guarantees:
 * a lock taken at {@code t} cannot be taken by anyone else before {@code t + minHold}.
 */
@Timeout(60)
class LockTemplateMinHoldIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration MIN_HOLD = Duration.ofSeconds(1);

	// Durations go to Redis in whole milliseconds, so the lease may end up to a
	// millisecond or two earlier than the exact minimum hold time.
	private static final long ROUNDING_MILLIS = 5;

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final List<String> mismatches = new CopyOnWriteArrayList<>();

	private LockStack stack;

	private LockStack otherStack;

	private LockTemplate template;

	// Another instance of the application: its own connections, waiter and template.
	private LockTemplate other;

	@BeforeEach
	void createTemplates() {
		this.stack = stack(new LockListener() {

			@Override
			public void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
				LockTemplateMinHoldIntegrationTests.this.mismatches.add(event.key());
			}

		});
		this.template = this.stack.template();
		this.otherStack = stack();
		this.other = this.otherStack.template();
	}

	private static LockStack stack(LockListener... listeners) {
		return LockStack.on(redis.endpoint())
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.waiter(new LockWaiter(Duration.ofMillis(100)))
			.listeners(listeners)
			.build();
	}

	@AfterEach
	void destroyTemplates() {
		this.stack.close();
		this.otherStack.close();
	}

	@Test
	void givenMinHoldWhenTheActionReturnsEarlyThenTheLockStaysUntilMinHoldAndThenGoesToAnother() {
		long start = System.nanoTime();
		String result = this.template.execute(LockRequest.of("job", TTL, Duration.ZERO).withMinHold(MIN_HOLD),
				() -> "done");

		assertThat(result).isEqualTo("done");
		assertThat(redis.endpoint().command("EXISTS", "lock:job")).isEqualTo(1L);
		// The lease was shortened to what remains of the minimum hold time, not left at
		// the ttl of ten seconds.
		assertThat((Long) redis.endpoint().command("PTTL", "lock:job")).isPositive()
			.isLessThanOrEqualTo(MIN_HOLD.toMillis());
		assertThat(this.other.tryAcquire("job", TTL, Duration.ZERO)).isEmpty();
		try (LockHandle next = this.other.tryAcquire("job", TTL, Duration.ofSeconds(5)).orElseThrow()) {
			assertThat(millisSince(start)).isGreaterThanOrEqualTo(MIN_HOLD.toMillis() - ROUNDING_MILLIS);
			assertThat(next.isHeld()).isTrue();
		}
		assertThat(this.template.getEngine().getStatistics().getReleased()).isOne();
		assertThat(this.mismatches).isEmpty();
	}

	@Test
	void givenMinHoldElapsedWhenReleasedThenTheKeyIsDeletedAtOnce() throws InterruptedException {
		LockHandle handle = this.template
			.tryAcquire(LockRequest.of("job", TTL, Duration.ZERO).withMinHold(Duration.ofMillis(200)))
			.orElseThrow();
		// The work of the job, longer than its minimum hold time.
		Thread.sleep(400);
		handle.close();

		assertThat(redis.endpoint().command("EXISTS", "lock:job")).isEqualTo(0L);
		try (LockHandle next = this.other.tryAcquire("job", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(next.fencingToken()).isGreaterThan(handle.fencingToken());
		}
	}

	@Test
	void givenMinHoldLongerThanTtlWithoutAutoRenewThenTheRequestIsRejected() {
		LockRequest notRenewed = LockRequest.of("job", Duration.ofMillis(500), Duration.ZERO).withAutoRenew(false);

		assertThatIllegalArgumentException().isThrownBy(() -> notRenewed.withMinHold(MIN_HOLD))
			.withMessageContaining("'minHold'")
			.withMessageContaining("'ttl'");
		LockRequest held = LockRequest.of("job", Duration.ofMillis(500), Duration.ZERO).withMinHold(MIN_HOLD);
		assertThatIllegalArgumentException().isThrownBy(() -> held.withAutoRenew(false))
			.withMessageContaining("'minHold'");
		// Up to the ttl is fine: the lease lasts that long anyway.
		assertThat(notRenewed.withMinHold(Duration.ofMillis(500)).minHold()).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void givenAutoRenewAndMinHoldLongerThanTtlThenTheLockStaysUntilMinHold() throws InterruptedException {
		Duration ttl = LockRequest.MIN_RENEWED_TTL;
		Duration minHold = Duration.ofMillis(1500);
		long start = System.nanoTime();
		this.template.execute(LockRequest.of("job", ttl, Duration.ZERO).withMinHold(minHold), (lock) -> {
			// Work for longer than the ttl: renewal keeps the lock meanwhile.
			Thread.sleep(ttl.plusMillis(200).toMillis());
			return null;
		});

		// The lease was extended to the rest of the minimum hold time, counted from the
		// acquisition (after start): at least what is left of it now, whatever the work
		// and this machine's load took, and never more than the minimum hold itself.
		long pttl = (Long) redis.endpoint().command("PTTL", "lock:job");
		long restOfMinHold = minHold.toMillis() - millisSince(start);
		assertThat(pttl).isGreaterThanOrEqualTo(restOfMinHold - ROUNDING_MILLIS)
			.isLessThanOrEqualTo(minHold.toMillis());
		try (LockHandle next = this.other.tryAcquire("job", TTL, Duration.ofSeconds(5)).orElseThrow()) {
			assertThat(millisSince(start)).isGreaterThanOrEqualTo(minHold.toMillis() - ROUNDING_MILLIS);
		}
		assertThat(this.mismatches).isEmpty();
	}

	@Test
	void givenALostLockWhenReleasedBeforeMinHoldThenAMismatchIsReportedAndNothingIsRecreated() {
		LockHandle handle = this.template.tryAcquire(LockRequest.of("job", TTL, Duration.ZERO).withMinHold(MIN_HOLD))
			.orElseThrow();
		redis.endpoint().command("DEL", "lock:job");

		handle.close();

		// The owner-checked shortening found no lock of this owner and made none.
		assertThat(redis.endpoint().command("EXISTS", "lock:job")).isEqualTo(0L);
		assertThat(this.mismatches).containsExactly("job");
		assertThat(this.template.getEngine().getStatistics().getReleaseMismatches()).isOne();
		assertThat(this.template.getEngine().getStatistics().getReleased()).isZero();
		assertThat(this.other.tryAcquire("job", TTL, Duration.ZERO)).isPresent().get().satisfies(LockHandle::close);
	}

	@Test
	void givenPermitsWhenAHolderReturnsEarlyThenItsPermitStaysTakenUntilMinHold() {
		LockRequest permit = LockRequest.of("exports", TTL, Duration.ZERO).withPermits(2);
		long start = System.nanoTime();
		this.template.execute(permit.withMinHold(MIN_HOLD), () -> null);

		try (LockHandle second = this.other.tryAcquire(permit).orElseThrow()) {
			// Two permits: the early returner's, still taken, and this one.
			assertThat(this.other.tryAcquire(permit)).isEmpty();
			try (LockHandle third = this.other
				.tryAcquire(LockRequest.of("exports", TTL, Duration.ofSeconds(5)).withPermits(2))
				.orElseThrow()) {
				assertThat(millisSince(start)).isGreaterThanOrEqualTo(MIN_HOLD.toMillis() - ROUNDING_MILLIS);
				assertThat(third.isHeld()).isTrue();
			}
		}
		assertThat(this.mismatches).isEmpty();
	}

	@Test
	void givenAReadHoldWhenTheReaderReturnsEarlyThenAWriterGetsInOnlyAfterMinHold() {
		LockRequest read = LockRequest.of("report", TTL, Duration.ZERO).withMode(LockMode.READ);
		long start = System.nanoTime();
		this.template.execute(read.withMinHold(MIN_HOLD), () -> null);

		LockRequest write = LockRequest.of("report", TTL, Duration.ZERO).withMode(LockMode.WRITE);
		assertThat(this.other.tryAcquire(write)).isEmpty();
		try (LockHandle writer = this.other
			.tryAcquire(LockRequest.of("report", TTL, Duration.ofSeconds(5)).withMode(LockMode.WRITE))
			.orElseThrow()) {
			assertThat(millisSince(start)).isGreaterThanOrEqualTo(MIN_HOLD.toMillis() - ROUNDING_MILLIS);
			assertThat(writer.isHeld()).isTrue();
		}
		assertThat(this.mismatches).isEmpty();
	}

	private static long millisSince(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
	}

}
