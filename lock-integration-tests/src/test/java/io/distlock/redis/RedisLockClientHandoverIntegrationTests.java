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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.store.AcquireResult;
import io.distlock.store.HandoverLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for {@link RedisLockClient#handOver} against a real redis-server:
 * owner-checked, with a greater fencing token, and declined while anyone else waits.
 */
class RedisLockClientHandoverIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void createClient() {
		redis.endpoint().flushAll();
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
	}

	@AfterEach
	void destroyClient() {
		this.connectionFactory.destroy();
	}

	@Test
	void givenTheHolderWhenNobodyElseWaitsThenTheLockIsHandedOverWithAGreaterTokenAndTheNewLease() {
		long first = acquire("a");
		HandoverLockClient.Handover outcome = this.client.handOver("k", "a", "b", Duration.ofSeconds(5));
		assertThat(outcome).isInstanceOfSatisfying(HandoverLockClient.HandedOver.class,
				(handedOver) -> assertThat(handedOver.fencingToken()).isGreaterThan(first));
		assertThat(this.client.isHeld("k", "b")).isTrue();
		assertThat(this.client.isHeld("k", "a")).isFalse();
		assertThat((Long) redis.endpoint().command("PTTL", "k")).isBetween(1L, 5000L);
		assertThat(this.client.release("k", "a")).isFalse();
		assertThat(this.client.release("k", "b")).isTrue();
	}

	@Test
	void givenACounterBehindTheTokensHandedOutWhenHandingOverThenTheTokenStillComesAfterThem() {
		// The counter a replica has when it missed the last acquisitions before a
		// failover.
		acquire("a");
		Object behind = redis.endpoint().command("GET", RedisLockKeys.of("k").fence());
		this.client.release("k", "a");
		long last = acquire("b");
		redis.endpoint().command("SET", RedisLockKeys.of("k").fence(), String.valueOf(behind));
		assertThat(this.client.handOver("k", "b", "c", TTL)).isInstanceOfSatisfying(HandoverLockClient.HandedOver.class,
				(handedOver) -> assertThat(handedOver.fencingToken()).isGreaterThan(last));
	}

	@Test
	void givenAnotherOwnerWhenHandingOverThenNothingChanges() {
		acquire("a");
		assertThat(this.client.handOver("k", "x", "b", TTL)).isInstanceOf(HandoverLockClient.NotHeld.class);
		assertThat(this.client.handOver("free", "x", "b", TTL)).isInstanceOf(HandoverLockClient.NotHeld.class);
		assertThat(this.client.isHeld("k", "a")).isTrue();
		assertThat(this.client.isHeld("k", "b")).isFalse();
	}

	@Test
	void givenACallerThatFoundTheLockBusyWhenHandingOverThenItIsDeclinedAndTheHolderKeepsIt() {
		acquire("a");
		assertThat(this.client.tryAcquire("k", "elsewhere", TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(this.client.handOver("k", "a", "b", TTL)).isInstanceOf(HandoverLockClient.Declined.class);
		assertThat(this.client.isHeld("k", "a")).isTrue();
		assertThat(this.client.isHeld("k", "b")).isFalse();
	}

	@Test
	void givenAFairWaiterWhenHandingOverThenItIsDeclined() {
		acquire("a");
		assertThat(this.client.tryAcquireFair("k", "fair", TTL, TTL)).isInstanceOf(AcquireResult.Busy.class);
		// The fair attempt announced itself too: only the queue may remain.
		redis.endpoint().command("DEL", RedisLockKeys.of("k").waiters());
		assertThat(this.client.handOver("k", "a", "b", TTL)).isInstanceOf(HandoverLockClient.Declined.class);
		assertThat(this.client.isHeld("k", "a")).isTrue();
	}

	@Test
	void givenReplicaAcknowledgementWhenHandingOverThenItIsDeclined() {
		this.client.setReplicaAcknowledgement(1, Duration.ofMillis(100));
		redis.endpoint().command("SET", "k", "a");
		assertThat(this.client.handOver("k", "a", "b", TTL)).isInstanceOf(HandoverLockClient.Declined.class);
		assertThat(this.client.isHeld("k", "a")).isTrue();
	}

	private long acquire(String owner) {
		AcquireResult result = this.client.tryAcquire("k", owner, TTL);
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
