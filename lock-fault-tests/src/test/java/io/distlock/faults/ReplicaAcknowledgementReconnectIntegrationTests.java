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

package io.distlock.faults;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.distlock.faults.proxy.TcpProxy;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests of replica acknowledgement
 * ({@code distlock.replication.min-replicas}) when the client's connection moves to
 * another server between an acquire script and its {@code WAIT}: Lettuce re-sends the
 * commands it had sent but got no answer for on the connection it makes again, so a
 * {@code WAIT} sent to the old primary may be answered by the promoted one, where the
 * fresh connection has written nothing and any replica in sync acknowledges it at once. A
 * real primary and replica, a real proxy in front of them, turned to the promoted replica
 * while the {@code WAIT} is blocked.
 */
class ReplicaAcknowledgementReconnectIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final String KEY = "lock:k";

	private RedisServer primary;

	private RedisServer replica;

	private TcpProxy proxy;

	private LettuceConnectionFactory connections;

	private RedisLockClient client;

	@BeforeEach
	void startPrimaryReplicaAndProxy() {
		this.primary = RedisServer.start();
		this.replica = RedisServer.startReplicaOf(this.primary);
		this.primary.awaitReplicasInSync(1);
		this.proxy = TcpProxy.start("127.0.0.1", this.primary.port());
		// Lettuce's defaults, as Spring Boot configures them: reconnecting, and sending
		// again what was sent and not answered.
		this.connections = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.proxy.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		this.connections.afterPropertiesSet();
		this.connections.start();
		this.client = new RedisLockClient(this.connections);
		this.client.setReplicaAcknowledgement(1, Duration.ofSeconds(3));
	}

	@AfterEach
	void stopAll() {
		this.connections.destroy();
		this.proxy.close();
		this.replica.close();
		this.primary.close();
	}

	@Test
	void whenTheWaitIsAnsweredByThePromotedReplicaAfterAReconnectThenTheGrantOfTheOldPrimaryIsNotConfirmed()
			throws Exception {
		String owner = UUID.randomUUID().toString();
		// The lock client's scripts are loaded, so that the grant is one round trip.
		AcquireResult warmUp = this.client.tryAcquire("lock:warm-up", owner, TTL);
		assertThat(warmUp).isInstanceOf(AcquireResult.Acquired.class);
		this.replica.command("REPLICAOF", "NO", "ONE");
		awaitUntil("the replica left", () -> info(this.primary, "replication").contains("connected_slaves:0"));
		CompletableFuture<AcquireResult> acquisition = CompletableFuture
			.supplyAsync(() -> this.client.tryAcquire(KEY, owner, TTL));
		// The old primary granted, and its WAIT is blocked: no replica is left to answer.
		awaitUntil("the grant and its WAIT on the old primary",
				() -> Long.valueOf(1).equals(this.primary.command("EXISTS", KEY))
						&& info(this.primary, "clients").contains("blocked_clients:1"));
		// The clients turned to the promoted replica, and the old primary's connections
		// closed, as Sentinel closes them (CLIENT KILL) when it reconfigures a server.
		this.proxy.retarget("127.0.0.1", this.replica.port());
		this.primary.command("CLIENT", "KILL", "TYPE", "normal");
		this.primary.command("REPLICAOF", "127.0.0.1", String.valueOf(this.replica.port()));
		this.replica.awaitReplicasInSync(1);
		AcquireResult result = acquisition.get(10, TimeUnit.SECONDS);
		assertThat(this.replica.command("EXISTS", KEY)).as("the grant on the promoted replica").isEqualTo(0L);
		assertThat(result).as("the old primary's grant, which the promoted replica never had")
			.isInstanceOf(AcquireResult.NotConfirmed.class);
	}

	private static String info(RedisServer server, String section) {
		return String.valueOf(server.command("INFO", section));
	}

	private static void awaitUntil(String what, BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("waited 10s for " + what).isLessThan(deadline);
			Thread.sleep(5);
		}
	}

}
