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

package io.distlock.sentinel;

import java.time.Duration;
import java.util.UUID;

import io.distlock.LockBackendException;
import io.distlock.LockTemplate;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.LockStack;
import io.distlock.test.RedisSentinelGroup;
import io.distlock.test.RedisServer;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Locks through Redis Sentinel that count only once both replicas acknowledged them.
 */
class SentinelReplicaAcknowledgementIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static RedisSentinelGroup group;

	private LettuceConnectionFactory connectionFactory;

	private LockStack stack;

	private RedisLockClient client;

	@BeforeAll
	static void startGroup() {
		group = RedisSentinelGroup.start();
	}

	@AfterAll
	static void closeGroup() {
		group.close();
	}

	@BeforeEach
	void createClient() {
		group.restore();
		group.primary().flushAll();
		this.connectionFactory = SentinelApplication.connectionFactory(group);
		this.stack = LockStack.on(this.connectionFactory).client((connectionFactory) -> {
			RedisLockClient client = new RedisLockClient(connectionFactory);
			client.setReplicaAcknowledgement(2, Duration.ofMillis(100));
			return client;
		}).withoutReleaseNotifier().waiter(new LockWaiter(Duration.ofMillis(50))).build();
		this.client = this.stack.client();
	}

	@AfterEach
	void destroyClient() {
		this.stack.close();
		this.connectionFactory.destroy();
	}

	@Test
	void lockCountsAsHeldOnlyOnceBothReplicasHaveIt() {
		String owner = UUID.randomUUID().toString();
		assertThat(this.client.tryAcquire("lock:k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		// Read at once, with no waiting: the acquisition counted only once acknowledged.
		for (RedisServer replica : group.replicas()) {
			assertThat(replica.command("GET", "lock:k")).as("lock on %s", replica).isEqualTo(owner);
		}
	}

	@Test
	void acquisitionWithOneReplicaStoppedIsNotConfirmedNamesTheShortfallAndLeavesNoLock() {
		group.replicas().get(0).stop();
		AcquireResult result = this.client.tryAcquire("lock:k", UUID.randomUUID().toString(), TTL);
		assertThat(result).isInstanceOfSatisfying(AcquireResult.NotConfirmed.class,
				(notConfirmed) -> assertThat(notConfirmed.reason())
					.isEqualTo("acknowledged by 1 of 2 replica(s) within 100ms"));
		assertThat(group.primary().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void templateWaitingWithOneReplicaStoppedFailsNamingTheShortfall() {
		group.replicas().get(1).stop();
		LockTemplate template = this.stack.template();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> template.tryAcquire("k", TTL, Duration.ofMillis(500)))
			.withMessageContaining("acknowledged by 1 of 2 replica(s) within 100ms")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"));
		// Retried until the wait time was up, not given up at the first shortfall.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
		assertThat(group.primary().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

}
