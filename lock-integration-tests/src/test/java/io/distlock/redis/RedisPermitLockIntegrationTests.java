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

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.AcquireResult;
import io.distlock.core.Renewal;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for the permits of {@link RedisLockClient} (a
 * {@link io.distlock.core.PermitLockClient}) against a real redis-server.
 */
class RedisPermitLockIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final String key = "lock:exports:" + UUID.randomUUID();

	private LettuceConnectionFactory connectionFactory;

	private LettuceConnectionFactory otherConnectionFactory;

	private RedisLockClient client;

	private RedisLockClient otherApplication;

	@BeforeEach
	void createClients() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
		this.otherConnectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.otherApplication = new RedisLockClient(this.otherConnectionFactory);
	}

	@AfterEach
	void destroyClients() {
		this.connectionFactory.destroy();
		this.otherConnectionFactory.destroy();
	}

	@Test
	void neverMoreThanThePermittedHoldersAtOnceAcrossTwoApplicationsUnderLoad() throws Exception {
		int permits = 3;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger mostHolders = new AtomicInteger();
		AtomicInteger acquisitions = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				RedisLockClient application = (t % 2 == 0) ? this.client : this.otherApplication;
				work.add(threads.submit(() -> {
					for (int i = 0; i < 10; i++) {
						String owner = owner();
						while (!(application.tryAcquirePermit(this.key, owner, TTL,
								permits) instanceof AcquireResult.Acquired)) {
							Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
						}
						int now = holders.incrementAndGet();
						mostHolders.accumulateAndGet(now, Math::max);
						Thread.sleep(ThreadLocalRandom.current().nextInt(2, 6));
						holders.decrementAndGet();
						assertThat(application.releasePermit(this.key, owner)).isTrue();
						acquisitions.incrementAndGet();
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(acquisitions).hasValue(160);
		assertThat(mostHolders.get()).as("most holders at once").isEqualTo(permits);
		assertThat(redis.endpoint().command("EXISTS", permits())).as("permits left behind").isEqualTo(0L);
	}

	@Test
	void permitsAreHeldAsASortedSetOfOwnersScoredByLeaseExpiryThatExpiresWithTheLongestLease() {
		String shortLease = owner();
		String longLease = owner();
		this.client.tryAcquirePermit(this.key, shortLease, Duration.ofSeconds(5), 2);
		this.client.tryAcquirePermit(this.key, longLease, Duration.ofSeconds(20), 2);
		assertThat(redis.endpoint().command("ZRANGE", permits(), "0", "-1")).isEqualTo(List.of(shortLease, longLease));
		assertThat((Long) redis.endpoint().command("PTTL", permits())).isGreaterThan(19_000L)
			.isLessThanOrEqualTo(20_000L);
		this.client.releasePermit(this.key, longLease);
		assertThat((Long) redis.endpoint().command("PTTL", permits())).isGreaterThan(4_000L)
			.isLessThanOrEqualTo(5_000L);
		this.client.releasePermit(this.key, shortLease);
		assertThat(redis.endpoint().command("EXISTS", permits())).isEqualTo(0L);
	}

	@Test
	void callerBeyondTheLimitIsBusyUntilTheEarliestLeaseExpires() {
		this.client.tryAcquirePermit(this.key, owner(), TTL, 2);
		this.client.tryAcquirePermit(this.key, owner(), Duration.ofSeconds(3), 2);
		assertThat(this.otherApplication.tryAcquirePermit(this.key, owner(), TTL, 2)).isInstanceOfSatisfying(
				AcquireResult.Busy.class, (busy) -> assertThat(busy.remainingTtl()).isGreaterThan(Duration.ofSeconds(2))
					.isLessThanOrEqualTo(Duration.ofSeconds(3)));
	}

	@Test
	void permitOfAHolderThatNeverReleasesReturnsAfterItsTtl() throws Exception {
		String crashed = owner();
		this.client.tryAcquirePermit(this.key, crashed, Duration.ofMillis(300), 2);
		this.client.tryAcquirePermit(this.key, owner(), TTL, 2);
		String next = owner();
		assertThat(this.otherApplication.tryAcquirePermit(this.key, next, TTL, 2))
			.isInstanceOf(AcquireResult.Busy.class);
		Thread.sleep(400);
		assertThat(this.client.isHeld(this.client.permitLeaseKey(this.key), crashed)).isFalse();
		assertThat(this.otherApplication.tryAcquirePermit(this.key, next, TTL, 2))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(redis.endpoint().command("ZCARD", permits())).as("the expired lease was dropped").isEqualTo(2L);
		assertThat(this.client.releasePermit(this.key, crashed)).isFalse();
	}

	@Test
	void renewalThroughTheLeaseKeyKeepsAPermitPastItsTtl() throws Exception {
		String owner = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquirePermit(this.key, owner, Duration.ofMillis(300), 1);
		for (int i = 0; i < 3; i++) {
			Thread.sleep(150);
			assertThat(this.client.renew(leaseKey, owner, Duration.ofMillis(300))).isTrue();
		}
		assertThat(this.client.renewAll(List.of(new Renewal(leaseKey, owner, TTL)))).containsExactly(true);
		Thread.sleep(400);
		assertThat(this.client.isHeld(leaseKey, owner)).isTrue();
		assertThat(this.otherApplication.tryAcquirePermit(this.key, owner(), TTL, 1)).isInstanceOfSatisfying(
				AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isGreaterThan(Duration.ofSeconds(9)));
		assertThat((Long) redis.endpoint().command("PTTL", permits())).as("the set lives as long as the renewed lease")
			.isGreaterThan(9_000L);
	}

	@Test
	void renewAllRenewsPermitsAndExclusiveLocksTogetherEachOnItsOwn() {
		String holder = owner();
		String permitHolder = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquire(this.key, holder, TTL);
		this.client.tryAcquirePermit(this.key, permitHolder, TTL, 1);
		assertThat(this.client
			.renewAll(List.of(new Renewal(this.key, holder, TTL), new Renewal(leaseKey, permitHolder, TTL),
					new Renewal(leaseKey, holder, TTL), new Renewal(this.key, permitHolder, TTL))))
			.containsExactly(true, true, false, false);
	}

	@Test
	void renewalAfterTheReleaseDoesNotBringThePermitBack() {
		String owner = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquirePermit(this.key, owner, TTL, 1);
		this.client.releasePermit(this.key, owner);
		assertThat(this.client.renew(leaseKey, owner, TTL)).isFalse();
		assertThat(this.client.renewAll(List.of(new Renewal(leaseKey, owner, TTL)))).containsExactly(false);
		assertThat(redis.endpoint().command("EXISTS", permits())).isEqualTo(0L);
	}

	@Test
	void releaseFreesExactlyThatHoldersPermitAndPublishesTheRelease() {
		String first = owner();
		String second = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquirePermit(this.key, first, TTL, 2);
		this.client.tryAcquirePermit(this.key, second, TTL, 2);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", RedisLockKeys.of(this.key).channel());
			assertThat(this.otherApplication.releasePermit(this.key, first)).isTrue();
			assertThat(subscriber.read()).isEqualTo(List.of("message", RedisLockKeys.of(this.key).channel(), this.key));
		}
		assertThat(this.client.isHeld(leaseKey, first)).isFalse();
		assertThat(this.client.isHeld(leaseKey, second)).isTrue();
		assertThat(this.client.releasePermit(this.key, first)).isFalse();
		assertThat(this.client.tryAcquirePermit(this.key, owner(), TTL, 2)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquirePermit(this.key, owner(), TTL, 2)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void releaseByANonHolderPublishesNothing() {
		this.client.tryAcquirePermit(this.key, owner(), TTL, 2);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofMillis(300))) {
			subscriber.command("PSUBSCRIBE", RedisLockKeys.CHANNEL_PATTERN);
			assertThat(this.client.releasePermit(this.key, owner())).isFalse();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(subscriber::read);
		}
	}

	@Test
	void releaseThroughTheLeaseKeyReleasesThePermit() {
		String owner = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquirePermit(this.key, owner, TTL, 1);
		assertThat(this.client.release(leaseKey, owner)).isTrue();
		assertThat(this.client.isHeld(leaseKey, owner)).isFalse();
		assertThat(this.client.tryAcquirePermit(this.key, owner(), TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossPermitsAndTheExclusiveLock() {
		List<Long> tokens = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			List<String> holders = List.of(owner(), owner(), owner());
			for (String holder : holders) {
				tokens.add(acquired(this.otherApplication.tryAcquirePermit(this.key, holder, TTL, 3)));
			}
			holders.forEach((holder) -> this.client.releasePermit(this.key, holder));
			String exclusive = owner();
			tokens.add(acquired(this.client.tryAcquire(this.key, exclusive, TTL)));
			this.client.release(this.key, exclusive);
		}
		assertThat(tokens).hasSize(20).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void onePermitIsExclusiveAmongPermitCallers() {
		String holder = owner();
		assertThat(this.client.tryAcquirePermit(this.key, holder, TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.otherApplication.tryAcquirePermit(this.key, owner(), TTL, 1))
			.isInstanceOf(AcquireResult.Busy.class);
		this.client.releasePermit(this.key, holder);
		assertThat(this.otherApplication.tryAcquirePermit(this.key, owner(), TTL, 1))
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void permitsAndTheExclusiveLockOfOneKeyAreIndependent() {
		assertThat(this.client.tryAcquire(this.key, owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquirePermit(this.key, owner(), TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void eachCallerAppliesItsOwnLimit() {
		this.client.tryAcquirePermit(this.key, owner(), TTL, 5);
		this.client.tryAcquirePermit(this.key, owner(), TTL, 5);
		this.client.tryAcquirePermit(this.key, owner(), TTL, 5);
		assertThat(this.otherApplication.tryAcquirePermit(this.key, owner(), TTL, 3))
			.isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.otherApplication.tryAcquirePermit(this.key, owner(), TTL, 4))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquirePermit(this.key, owner(), TTL, 5)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquirePermit(this.key, owner(), TTL, 5)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void ownerHoldingAPermitIsBusyOnASecondAttemptAndStillHoldsOne() {
		String owner = owner();
		this.client.tryAcquirePermit(this.key, owner, TTL, 3);
		assertThat(this.client.tryAcquirePermit(this.key, owner, TTL, 3)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(redis.endpoint().command("ZCARD", permits())).isEqualTo(1L);
	}

	@Test
	void fewerThanOnePermitIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.tryAcquirePermit(this.key, owner(), TTL, 0))
			.withMessage("'permits' must be at least 1, but was 0");
		assertThat(redis.endpoint().command("EXISTS", permits())).isEqualTo(0L);
	}

	@Test
	void leaseKeyIsNoLockResource() {
		String leaseKey = this.client.permitLeaseKey(this.key);
		assertThat(leaseKey).isEqualTo(permits()).contains(String.valueOf(RedisLockKeys.SEPARATOR));
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.tryAcquire(leaseKey, owner(), TTL));
	}

	private String permits() {
		return RedisLockKeys.of(this.key).permits();
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
