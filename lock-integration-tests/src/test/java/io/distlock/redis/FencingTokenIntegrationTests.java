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

package io.distlock.redis;

import java.time.Duration;
import java.util.UUID;

import io.distlock.LockHandle;
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.store.AcquireResult;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests of the fencing-token rule on a real redis-server: tokens of read
 * holds, the retention floor, and attempts that do not wait.
 */
class FencingTokenIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static final Duration TTL = Duration.ofSeconds(10);

	private LockStack stack;

	private RedisLockClient client;

	@BeforeEach
	void createStack() {
		this.stack = LockStack.on(redis.endpoint())
			.withoutReleaseNotifier()
			.waiter(new LockWaiter(Duration.ofMillis(50)))
			.build();
		this.client = this.stack.client();
	}

	@AfterEach
	void closeStack() {
		this.stack.close();
	}

	@Test
	void readHoldsGetTokensOfTheirOwnAfterEveryEarlierWriterAndBeforeEveryLaterOne() {
		String writer = owner();
		long written = acquired(this.client.tryAcquire("k", writer, TTL));
		this.client.release("k", writer);
		long firstRead = acquired(this.client.tryAcquireRead("k", owner(), TTL));
		long secondRead = acquired(this.client.tryAcquireRead("k", owner(), TTL));
		assertThat(firstRead).isGreaterThan(written);
		assertThat(secondRead).isGreaterThan(firstRead);
		redis.endpoint().command("DEL", RedisLockKeys.of("k").readHolds());
		assertThat(acquired(this.client.tryAcquire("k", owner(), TTL))).isGreaterThan(secondRead);
	}

	@Test
	void givenTheCounterGoneWhenAReaderTakesAHoldThenItsTokenStillComesAfterTheLastWriters() {
		String writer = owner();
		long written = acquired(this.client.tryAcquire("k", writer, TTL));
		this.client.release("k", writer);
		redis.endpoint().command("DEL", RedisLockKeys.of("k").fence());
		assertThat(acquired(this.client.tryAcquireRead("k", owner(), TTL))).isGreaterThan(written);
	}

	@Test
	void givenAWriterWhoseLeaseRanOutWhenReadersFollowThenTheStaleWritersTokenIsBelowTheirs() {
		long stale = acquired(this.client.tryAcquire("k", owner(), TTL));
		// Its lease ran out while it was paused.
		redis.endpoint().command("DEL", "k");
		assertThat(acquired(this.client.tryAcquireRead("k", owner(), TTL))).isGreaterThan(stale);
	}

	@Test
	void aRetentionShorterThanAMinuteIsRefusedNamingTheValue() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.setFencingCounterRetention(Duration.ofMillis(1)))
			.withMessage("The fencing counter retention must be at least 60s, but was 1ms: a shorter one leaves "
					+ "fencing tokens to the clock alone (docs/safety.md)");
		this.client.setFencingCounterRetention(Duration.ofMinutes(1));
	}

	@Test
	void anAttemptThatDoesNotWaitIsNotAnnouncedToTheHolder() {
		LockTemplate template = this.stack.template();
		try (LockHandle held = template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(template.tryAcquire("k", TTL, Duration.ZERO)).isEmpty();
			assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("lock:k").waiters())).isEqualTo(0L);
			assertThat(template.tryAcquire("k", TTL, Duration.ofMillis(20))).isEmpty();
			assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("lock:k").waiters())).isEqualTo(1L);
		}
	}

	@Test
	void aReadAttemptThatDoesNotWaitIsNotAnnouncedToTheWriter() {
		LockTemplate template = this.stack.template();
		LockRequest read = LockRequest.of("k", TTL, Duration.ZERO).withMode(LockMode.READ);
		try (LockHandle held = template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(template.tryAcquire(read)).isEmpty();
			assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("lock:k").waiters())).isEqualTo(0L);
		}
	}

	@Test
	void aTryOnceOfTheStoreIsNotAnnouncedButAnAttemptThatWaitsIs() {
		acquired(this.client.tryAcquire("k", owner(), TTL));
		assertThat(this.client.tryAcquireOnce("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").waiters())).isEqualTo(0L);
		assertThat(this.client.tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").waiters())).isEqualTo(1L);
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
