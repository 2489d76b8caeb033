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

import io.distlock.store.AcquireResult;
import io.distlock.store.Renewal;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RespConnection;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for the permits of {@link RedisLockClient} against a real
 * redis-server, for what is particular to Redis: the sorted set the permits are kept in
 * and how long it lives, the release messages, and two applications sharing the limit.
 * The permit contract runs in {@link RedisStoreContractIntegrationTests}.
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
	void neverMoreThanThePermittedHoldersAtOnceAcrossTwoApplications() throws Exception {
		int permits = 2;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger mostHolders = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				RedisLockClient application = (t % 2 == 0) ? this.client : this.otherApplication;
				work.add(threads.submit(() -> {
					for (int i = 0; i < 10; i++) {
						String owner = owner();
						while (!(application.tryAcquirePermit(this.key, owner, TTL,
								permits) instanceof AcquireResult.Acquired)) {
							Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
						}
						mostHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
						Thread.sleep(ThreadLocalRandom.current().nextInt(2, 6));
						holders.decrementAndGet();
						assertThat(application.releasePermit(this.key, owner)).isTrue();
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
		assertThat(mostHolders.get()).as("most holders at once").isEqualTo(permits);
		assertThat(redis.endpoint().command("EXISTS", permits())).as("permits left behind").isEqualTo(0L);
	}

	@Test
	void expiredLeaseIsDroppedFromTheSetByTheNextAcquisition() {
		String crashed = owner();
		this.client.tryAcquirePermit(this.key, crashed, Duration.ofMillis(100), 2);
		this.client.tryAcquirePermit(this.key, owner(), TTL, 2);
		String next = owner();
		Awaitility.await()
			.atMost(TTL)
			.until(() -> this.otherApplication.tryAcquirePermit(this.key, next, TTL,
					2) instanceof AcquireResult.Acquired);
		assertThat(redis.endpoint().command("ZCARD", permits())).isEqualTo(2L);
		assertThat(redis.endpoint().command("ZSCORE", permits(), crashed)).isNull();
	}

	@Test
	void renewalSetsTheExpiryOfTheSetToTheRenewedLease() {
		String owner = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquirePermit(this.key, owner, Duration.ofSeconds(1), 1);
		assertThat(this.client.renewAll(List.of(new Renewal(leaseKey, owner, TTL)))).containsExactly(true);
		assertThat((Long) redis.endpoint().command("PTTL", permits())).isGreaterThan(9_000L);
	}

	@Test
	void renewalAfterTheReleaseLeavesNoSetBehind() {
		String owner = owner();
		String leaseKey = this.client.permitLeaseKey(this.key);
		this.client.tryAcquirePermit(this.key, owner, TTL, 1);
		this.client.releasePermit(this.key, owner);
		this.client.renew(leaseKey, owner, TTL);
		this.client.renewAll(List.of(new Renewal(leaseKey, owner, TTL)));
		assertThat(redis.endpoint().command("EXISTS", permits())).isEqualTo(0L);
	}

	@Test
	void releaseIsPublishedOnTheReleaseChannelOfTheKey() {
		String holder = owner();
		this.client.tryAcquirePermit(this.key, holder, TTL, 2);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", RedisLockKeys.of(this.key).channel());
			assertThat(this.otherApplication.releasePermit(this.key, holder)).isTrue();
			assertThat(subscriber.read()).isEqualTo(List.of("message", RedisLockKeys.of(this.key).channel(), this.key));
		}
	}

	@Test
	void fewerThanOnePermitIsRejectedWithoutTouchingRedis() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.tryAcquirePermit(this.key, owner(), TTL, 0))
			.withMessage("'permits' must be at least 1, but was 0");
		assertThat(redis.endpoint().command("EXISTS", permits())).isEqualTo(0L);
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
	void releaseByANonHolderPublishesNothing() {
		this.client.tryAcquirePermit(this.key, owner(), TTL, 2);
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofMillis(300))) {
			subscriber.command("PSUBSCRIBE", RedisLockKeys.CHANNEL_PATTERN);
			assertThat(this.client.releasePermit(this.key, owner())).isFalse();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(subscriber::read);
		}
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

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
