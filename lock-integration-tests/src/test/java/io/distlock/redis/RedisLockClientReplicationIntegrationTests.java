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
import java.util.List;
import java.util.UUID;

import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.store.AcquireResult;
import io.distlock.store.Renewal;
import io.distlock.test.LockStack;
import io.distlock.test.RedisConnections;
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
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link RedisLockClient} waiting for replica acknowledgement, on a
 * real primary with a real replica.
 */
class RedisLockClientReplicationIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final Duration ACK_TIMEOUT = Duration.ofMillis(100);

	// For the steps that need the live replica's acknowledgement: 100ms is too short for
	// a loaded CI machine, and a lock not acknowledged in time is given back.
	private static final Duration GENEROUS_ACK_TIMEOUT = Duration.ofSeconds(5);

	// Above every WAIT timeout here: Lettuce expires a WAIT that outlasts it.
	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

	private static RedisServer primary;

	private static RedisServer replica;

	private LockStack stack;

	private RedisLockClient client;

	@BeforeAll
	static void startPrimaryAndReplica() {
		primary = RedisServer.start();
		replica = RedisServer.start("--replicaof", primary.host(), Integer.toString(primary.port()));
		awaitReplicaInSync();
	}

	@AfterAll
	static void stopServers() {
		replica.close();
		primary.close();
	}

	@BeforeEach
	void createClient() {
		replica.ensureRunning();
		awaitReplicaInSync();
		primary.flushAll();
		this.stack = LockStack.on(primary).commandTimeout(COMMAND_TIMEOUT).client((connectionFactory) -> {
			RedisLockClient client = new RedisLockClient(connectionFactory);
			client.setReplicaAcknowledgement(1, ACK_TIMEOUT);
			return client;
		}).withoutReleaseNotifier().waiter(new LockWaiter(Duration.ofMillis(50))).build();
		this.client = this.stack.client();
	}

	@AfterEach
	void closeStack() {
		this.stack.close();
	}

	@Test
	void givenALiveReplicaWhenAcquiredThenTheReplicaAlreadyHoldsTheLock() {
		String owner = owner();
		this.client.setReplicaAcknowledgement(1, GENEROUS_ACK_TIMEOUT);
		assertThat(this.client.tryAcquire("lock:k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		// Read at once, with no waiting: the acquisition counted only once acknowledged.
		assertThat(replica.command("GET", "lock:k")).isEqualTo(owner);
	}

	@Test
	void givenALiveReplicaWhenEveryKindIsAcquiredThenEachIsConfirmedWhereItWasAcknowledged() {
		this.client.setReplicaAcknowledgement(1, GENEROUS_ACK_TIMEOUT);
		// Each kind is checked, after its WAIT, under the key it took: the lock, the read
		// holds or the permits.
		assertThat(this.client.tryAcquireRead("lock:read", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquirePermit("lock:permits", owner(), TTL, 2))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.tryAcquireFair("lock:fair", owner(), TTL, Duration.ofSeconds(5)))
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void givenAStoppedReplicaWhenAcquiringThenTheAttemptIsNotConfirmedNamesTheShortfallAndLeavesNoLock() {
		replica.stop();
		AcquireResult result = this.client.tryAcquire("lock:k", owner(), TTL);
		assertThat(result).isInstanceOfSatisfying(AcquireResult.NotConfirmed.class,
				(notConfirmed) -> assertThat(notConfirmed.reason())
					.isEqualTo("acknowledged by 0 of 1 replica(s) within 100ms"));
		assertThat(primary.command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void givenMoreReplicasRequiredThanExistWhenAcquiringFairThenTheAttemptIsNotConfirmed() {
		// Long enough for the one live replica to answer on a loaded machine.
		this.client.setReplicaAcknowledgement(2, Duration.ofSeconds(2));
		AcquireResult result = this.client.tryAcquireFair("lock:k", owner(), TTL, TTL);
		assertThat(result).isInstanceOfSatisfying(AcquireResult.NotConfirmed.class,
				(notConfirmed) -> assertThat(notConfirmed.reason()).startsWith("acknowledged by 1 of 2 replica(s)"));
		assertThat(primary.command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void givenAStoppedReplicaWhenRenewingThenTheRenewalFailsNamingTheShortfall() {
		String owner = owner();
		this.client.setReplicaAcknowledgement(1, GENEROUS_ACK_TIMEOUT);
		assertThat(this.client.tryAcquire("lock:k", owner, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		this.client.setReplicaAcknowledgement(1, ACK_TIMEOUT);
		replica.stop();
		assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> this.client.renew("lock:k", owner, TTL))
			.withMessageContaining("acknowledged by 0 of 1 replica(s) within 100ms");
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> this.client.renewAll(List.of(new Renewal("lock:k", owner, TTL))))
			.withMessageContaining("acknowledged by 0 of 1 replica(s)");
	}

	@Test
	void givenAStoppedReplicaWhenTheTemplateWaitsThenItRetriesAndFailsWithTheShortfallAtTheDeadline() {
		replica.stop();
		LockTemplate template = this.stack.template();
		assertThatExceptionOfType(LockBackendException.class)
			.isThrownBy(() -> template.tryAcquire("k", TTL, Duration.ofMillis(500)))
			.withMessageContaining("acknowledged by 0 of 1 replica(s)")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"));
		assertThat(primary.command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void givenAReplicaBackDuringTheWaitWhenTheTemplateWaitsThenItGetsTheLock() throws Exception {
		replica.stop();
		LockTemplate template = this.stack.template();
		Thread restart = new Thread(() -> {
			replica.restart();
		});
		restart.start();
		try (LockHandle handle = template.tryAcquire("k", TTL, Duration.ofSeconds(20)).orElseThrow()) {
			assertThat(replica.command("GET", "lock:k")).isNotNull();
			assertThat(handle.isHeld()).isTrue();
		}
		restart.join();
	}

	@Test
	void givenAReplicaWhenLockingOnItThenTheErrorSaysWhyRedisRefused() {
		LettuceConnectionFactory onReplica = RedisConnections.connectionFactory(replica);
		try {
			RedisLockClient client = new RedisLockClient(onReplica);
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> client.tryAcquire("lock:k", owner(), TTL))
				.withMessageContaining("READONLY");
		}
		finally {
			onReplica.destroy();
		}
	}

	private static void awaitReplicaInSync() {
		// connected_slaves counts a replica still waiting for its first sync too, which
		// acknowledges nothing yet: only state=online means WAIT can count it.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> String.valueOf(replica.command("INFO", "replication")).contains("master_link_status:up")
					&& String.valueOf(primary.command("INFO", "replication")).contains("connected_slaves:1")
					&& String.valueOf(primary.command("INFO", "replication")).contains("state=online"));
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
