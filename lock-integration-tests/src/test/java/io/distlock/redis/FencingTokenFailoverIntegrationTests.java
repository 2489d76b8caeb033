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

import io.distlock.store.AcquireResult;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests of fencing tokens across a failover that loses the last grant: a real
 * primary and a real replica, the replica promoted ({@code REPLICAOF NO ONE}) before the
 * primary's last grant reached it, as Sentinel or Cluster promote a replica that missed
 * the last writes of asynchronous replication. Both servers run on this machine, so their
 * clocks agree: the guarantee's assumption (docs/safety.md). A counter ahead of the
 * clock, as a clock stepped back or an earlier primary with a faster clock leave it, is
 * emulated by writing the counter ahead of the server's time.
 */
class FencingTokenFailoverIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final String KEY = "lock:k";

	private RedisServer primary;

	private RedisServer replica;

	private LettuceConnectionFactory onPrimary;

	private LettuceConnectionFactory onReplica;

	private RedisLockClient oldPrimary;

	private RedisLockClient newPrimary;

	// The Redis clock at the grant the failover lost, in microseconds.
	private long lostClock;

	@BeforeEach
	void startPrimaryAndReplica() {
		this.primary = RedisServer.start();
		this.replica = RedisServer.startReplicaOf(this.primary);
		this.primary.awaitReplicasInSync(1);
		this.onPrimary = RedisConnections.connectionFactory(this.primary);
		this.onReplica = RedisConnections.connectionFactory(this.replica);
		this.oldPrimary = new RedisLockClient(this.onPrimary);
		this.newPrimary = new RedisLockClient(this.onReplica);
	}

	@AfterEach
	void stopServers() {
		this.onPrimary.destroy();
		this.onReplica.destroy();
		this.replica.close();
		this.primary.close();
	}

	@Test
	void givenClocksInAgreementWhenAFailoverLosesTheLastGrantThenTheNewPrimaryHandsOutAGreaterToken() {
		grantAndReplicate();
		assertThat(tokenLostInFailover()).isLessThan(tokenOnTheNewPrimary());
	}

	@Test
	void givenACounterAheadOfTheClockWhenAFailoverLosesTheFirstGrantAfterItThenTheNewPrimaryHandsOutAGreaterToken() {
		setCounterAhead(Duration.ofSeconds(60));
		long lost = tokenLostInFailover();
		long next = tokenOnTheNewPrimary();
		assertThat(next).isGreaterThan(lost);
	}

	@Test
	void givenACounterAheadOfTheClockWhenAFailoverLosesALaterGrantThenTheNewPrimaryHandsOutAGreaterToken() {
		setCounterAhead(Duration.ofSeconds(60));
		grantAndReplicate();
		long lost = tokenLostInFailover();
		assertThat(tokenOnTheNewPrimary()).isGreaterThan(lost);
	}

	@Test
	void givenAClockBehindTheLastGrantByLessThanASecondWhenAFailoverLosesTheFirstGrantThenTheNewPrimaryHandsOutAGreaterToken() {
		setCounterAhead(Duration.ofMillis(900));
		long lost = tokenLostInFailover();
		// The guarantee's other assumption: a failover takes longer than a second.
		long lostAt = this.lostClock;
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> clock(this.replica) > lostAt + 1_000_000);
		assertThat(tokenOnTheNewPrimary()).isGreaterThan(lost);
	}

	@Test
	void givenACounterAheadOfTheClockWhenTokensAreHandedOutThenTheLeadIsReported() {
		setCounterAhead(Duration.ofSeconds(60));
		grantAndReplicate();
		// A clock found behind by more than a second: tokens go on from the retention
		// (10 minutes by default) ahead of it, so that they still increase with it.
		assertThat(this.oldPrimary.getLargestFencingLead()).isGreaterThan(Duration.ofSeconds(60))
			.isLessThan(RedisLockClient.DEFAULT_FENCING_COUNTER_RETENTION);
		assertThat(this.newPrimary.getLargestFencingLead()).isZero();
	}

	@Test
	void givenTokensFromTheClockWhenTokensAreHandedOutThenNoLeadIsReported() {
		grantAndReplicate();
		grantAndReplicate();
		assertThat(this.oldPrimary.getLargestFencingLead()).isZero();
	}

	@Test
	void givenTheOldPrimarysClockAheadWhenItGrantsAfterThePromotionThenALaterGrantOfTheNewPrimaryIsLower() {
		grantAndReplicate();
		promoteTheReplica();
		oldPrimaryClockAhead(Duration.ofMillis(500));
		String owner = owner();
		long lost = acquired(this.oldPrimary.tryAcquire(KEY, owner, TTL));
		assertThat(this.oldPrimary.release(KEY, owner)).isTrue();
		// Outside the condition docs/deployments.md states: the old primary's clock is
		// ahead of the new one's by more than the time from its last grant to the new
		// primary's first. The startup warning (FailoverFencingWarning) names it.
		assertThat(tokenOnTheNewPrimary()).isLessThan(lost);
	}

	@Test
	void givenMinReplicasWhenTheOldPrimaryGrantsAfterThePromotionThenTheGrantIsNotConfirmed() {
		this.oldPrimary.setReplicaAcknowledgement(1, Duration.ofMillis(100));
		grantAndReplicate();
		promoteTheReplica();
		oldPrimaryClockAhead(Duration.ofMillis(500));
		assertThat(this.oldPrimary.tryAcquire(KEY, owner(), TTL)).isInstanceOf(AcquireResult.NotConfirmed.class);
		assertThat(this.primary.command("EXISTS", KEY)).as("the grant given back").isEqualTo(0L);
	}

	/**
	 * Make the old primary hand out tokens as a server whose clock is the given time
	 * ahead would: its counter that much ahead of its clock, after the promotion, so that
	 * the new primary does not get it.
	 */
	private void oldPrimaryClockAhead(Duration ahead) {
		long now = clock(this.primary);
		this.primary.command("SET", RedisLockKeys.of(KEY).fence(), (now + ahead.toNanos() / 1000) + ":" + now, "PX",
				"600000");
	}

	private void promoteTheReplica() {
		this.replica.command("REPLICAOF", "NO", "ONE");
		await().atMost(Duration.ofSeconds(10))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(5))
			.until(() -> String.valueOf(this.replica.command("INFO", "replication")).contains("role:master"));
	}

	/**
	 * Write the key's counter ahead of the primary's clock, and let the replica have it.
	 */
	private void setCounterAhead(Duration lead) {
		long now = clock(this.primary);
		this.primary.command("SET", RedisLockKeys.of(KEY).fence(), String.valueOf(now + lead.toNanos() / 1000), "PX",
				"600000");
		// Not WAIT: sent on a connection of its own, which wrote nothing, it waits for
		// nothing; the replica's acknowledged offset is what tells.
		this.primary.awaitReplicasInSync(1);
	}

	/**
	 * Take and release the lock on the primary, and wait until the replica has the grant.
	 */
	private long grantAndReplicate() {
		String owner = owner();
		long token = acquired(this.oldPrimary.tryAcquire(KEY, owner, TTL));
		assertThat(this.oldPrimary.release(KEY, owner)).isTrue();
		// Not WAIT: sent on a connection of its own, which wrote nothing, it waits for
		// nothing; the replica's acknowledged offset is what tells.
		this.primary.awaitReplicasInSync(1);
		return token;
	}

	/**
	 * Promote the replica, then grant the lock on the old primary: the grant the failover
	 * loses, whose holder still believes in it.
	 */
	private long tokenLostInFailover() {
		this.replica.command("REPLICAOF", "NO", "ONE");
		await().atMost(Duration.ofSeconds(10))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(5))
			.until(() -> String.valueOf(this.replica.command("INFO", "replication")).contains("role:master"));
		AcquireResult result = this.oldPrimary.tryAcquire(KEY, owner(), TTL);
		this.lostClock = ((AcquireResult.Acquired) result).clockMicros();
		return acquired(result);
	}

	private static long clock(RedisServer server) {
		List<?> time = (List<?>) server.command("TIME");
		return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000 + Long.parseLong(String.valueOf(time.get(1)));
	}

	private long tokenOnTheNewPrimary() {
		return acquired(this.newPrimary.tryAcquire(KEY, owner(), TTL));
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

}
