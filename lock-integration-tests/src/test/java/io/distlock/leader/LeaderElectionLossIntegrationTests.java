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

package io.distlock.leader;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.distlock.LockEvent;
import io.distlock.LockListener;
import io.distlock.LockSettings;
import io.distlock.engine.LockEngine;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests, on a real redis-server, for when a {@link LeaderElection} stops
 * answering "leader": at once when its lock is found lost, whatever its lock listeners
 * do, and once its lease ran out by its own clock, before any renewal tick noticed.
 */
class LeaderElectionLossIntegrationTests {

	private static final String NAME = "leader-loss";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final CountDownLatch finish = new CountDownLatch(1);

	private LettuceConnectionFactory connectionFactory;

	private LeaderElection election;

	// The listener of the test under way, which the election's settings call.
	private volatile LockListener listener = new LockListener() {
	};

	@BeforeEach
	void createElection() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		LockListener delegate = new LockListener() {

			@Override
			public void onLost(LockEvent.Lost event) {
				LeaderElectionLossIntegrationTests.this.listener.onLost(event);
			}

		};
		LockSettings settings = LockSettings.builder().lockListeners(List.of(delegate)).build();
		this.election = new LeaderElection(new LockEngine(new RedisLockClient(this.connectionFactory),
				new LockWaiter(Duration.ofMillis(500)), settings), NAME);
	}

	@AfterEach
	void stopElection() {
		this.finish.countDown();
		this.election.stop();
		this.connectionFactory.destroy();
	}

	@Test
	void leadershipIsRevokedWhileALostLockListenerStillBlocks() throws Exception {
		CountDownLatch listenerEntered = new CountDownLatch(1);
		this.election.setTtl(Duration.ofMillis(600));
		this.listener = (new LockListener() {

			@Override
			public void onLost(LockEvent.Lost event) {
				listenerEntered.countDown();
				try {
					LeaderElectionLossIntegrationTests.this.finish.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}

		});
		this.election.start();
		await().atMost(Duration.ofSeconds(5)).until(this.election::isLeader);

		// Another owner takes the key in one command: the next renewal (after ttl/3)
		// finds it taken, and this instance cannot take it back.
		redis.endpoint().command("SET", "lock:" + NAME, "another-owner", "PX", "60000");

		assertThat(listenerEntered.await(5, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.election.isLeader());
		assertThat(this.election.getFencingToken()).isEmpty();
		assertThat(this.finish.getCount()).as("the listener still blocks").isOne();
	}

	@Test
	void leaderWhoseLeaseRanOutByItsClockIsNoLeaderBeforeAnyRenewalTickRuns() {
		MovableClock clock = new MovableClock();
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setClock(clock);
		scheduler.initialize();
		try {
			// A ttl long enough that no renewal is due while the test runs (the first
			// after 10s): nothing but the lease's own expiry can end the leadership.
			this.election.setTtl(Duration.ofSeconds(30));
			this.election.setRenewalScheduler(scheduler);
			this.election.start();
			await().atMost(Duration.ofSeconds(5)).until(this.election::isLeader);
			long token = this.election.getFencingToken().orElseThrow();
			assertThat(token).isPositive();

			// As after a pause (a long GC) longer than the ttl, with the lease unrenewed.
			clock.advance(Duration.ofSeconds(31));

			assertThat(this.election.isLeader()).isFalse();
			assertThat(this.election.getFencingToken()).isEmpty();
		}
		finally {
			this.election.stop();
			scheduler.shutdown();
		}
	}

	/**
	 * The system clock, moved forward on demand.
	 */
	private static final class MovableClock extends Clock {

		private volatile Duration offset = Duration.ZERO;

		void advance(Duration duration) {
			this.offset = this.offset.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Instant instant() {
			return Instant.now().plus(this.offset);
		}

	}

}
