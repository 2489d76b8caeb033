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

package io.distlock.lease;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.distlock.lease.LeaseRenewerTests.CountingClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the lifecycle of a {@link LeaseRenewer}: Spring's pause leaves it running,
 * {@code stop()} is not final (a start or a registration brings it back, with threads of
 * its own made again), and only {@code close()} is.
 */
class LeaseRenewerLifecycleTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private static final Duration TTL = Duration.ofMillis(300);

	private final ManualTaskScheduler scheduler = new ManualTaskScheduler(T0);

	private final CountingClient client = new CountingClient(this.scheduler.getClock());

	private final LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1), this.scheduler,
			Runnable::run, Runnable::run);

	private final AtomicInteger lost = new AtomicInteger();

	@AfterEach
	void closeRenewer() {
		this.renewer.close();
	}

	@Test
	void isNotStoppedWhenSpringPausesItsContext() {
		// The work that holds a lock goes on while its context is paused.
		assertThat(this.renewer.isPauseable()).isFalse();
	}

	@Test
	void stopStopsRenewingAndReportsTheHeldLeasesLost() {
		this.renewer.start();
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		AtomicBoolean stopped = new AtomicBoolean();
		this.renewer.stop(() -> stopped.set(true));
		assertThat(stopped).isTrue();
		assertThat(this.renewer.isRunning()).isFalse();
		assertThat(this.renewer.size()).isZero();
		assertThat(this.lost).hasValue(1);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.client.attempts).isEmpty();
	}

	@Test
	void stoppedRenewerStartedAgainRenewsNewLeases() {
		this.renewer.start();
		this.renewer.stop();
		this.renewer.start();
		assertThat(this.renewer.isRunning()).isTrue();
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		this.scheduler.advance(Duration.ofMillis(250));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100), at(200));
		assertThat(this.lost).hasValue(0);
	}

	@Test
	void registrationStartsAStoppedRenewerAgain() {
		this.renewer.start();
		this.renewer.stop();
		this.renewer.register("k", "owner", TTL, this.lost::incrementAndGet);
		assertThat(this.renewer.isRunning()).isTrue();
		this.scheduler.advance(Duration.ofMillis(150));
		assertThat(this.client.renewalsOf("k")).containsExactly(at(100));
	}

	@Test
	void stopAndStartAgainAndAgainKeepRenewing() {
		for (int round = 0; round < 3; round++) {
			this.renewer.start();
			this.renewer.register("k" + round, "owner", TTL, this.lost::incrementAndGet);
			this.scheduler.advance(Duration.ofMillis(100));
			assertThat(this.client.renewalsOf("k" + round)).hasSize(1);
			this.renewer.stop();
		}
		assertThat(this.lost).hasValue(3);
	}

	@Test
	void closedRenewerNeitherStartsNorTakesRegistrations() {
		this.renewer.stop();
		this.renewer.close();
		this.renewer.start();
		assertThat(this.renewer.isRunning()).isFalse();
		assertThatIllegalStateException()
			.isThrownBy(() -> this.renewer.register("order:42", "owner", TTL, this.lost::incrementAndGet))
			.withMessage("Cannot renew lock 'order:42': the lease renewer was closed");
	}

	@Test
	void defaultRenewerMakesItsThreadsAgainWhenStartedAfterAStop() {
		CountingClient client = new CountingClient(Clock.systemUTC());
		try (LeaseRenewer renewer = new LeaseRenewer(client, Duration.ofHours(1))) {
			Clock clock = renewer.getClock();
			renewer.register("before", "owner", TTL, this.lost::incrementAndGet);
			await().atMost(Duration.ofSeconds(5)).until(() -> client.renewalsOf("before").size() >= 1);
			renewer.stop();
			renewer.start();
			renewer.register("after-start", "owner", TTL, this.lost::incrementAndGet);
			renewer.stop();
			// A registration starts it again as well.
			renewer.register("after-registration", "owner", TTL, this.lost::incrementAndGet);
			await().atMost(Duration.ofSeconds(5)).until(() -> client.renewalsOf("after-registration").size() >= 2);
			assertThat(renewer.getClock()).isSameAs(clock);
			assertThat(this.lost).hasValue(2);
		}
	}

	@Test
	void everyRegistrationRacingStopsAndStartsIsRenewedOrReportedLost() throws Exception {
		CountingClient client = new CountingClient(Clock.systemUTC());
		ExecutorService registrars = Executors.newFixedThreadPool(4);
		List<Lease> leases = new ArrayList<>();
		try (LeaseRenewer renewer = new LeaseRenewer(client, Duration.ofHours(1))) {
			List<Future<Lease>> registered = new ArrayList<>();
			for (int i = 0; i < 400; i++) {
				String key = "k" + i;
				registered.add(registrars.submit(() -> renewer.registerDetached(key, "owner", Duration.ofSeconds(3),
						renewer.getClock().instant(), this.lost::incrementAndGet)));
				if (i % 20 == 0) {
					renewer.stop();
					renewer.start();
				}
			}
			for (Future<Lease> lease : registered) {
				leases.add(lease.get());
			}
			// Every lease returned is either still registered, and renewed, or was
			// reported lost by a stop: none is left behind unrenewed and unreported.
			List<Lease> held = leases.stream().filter((lease) -> !lease.isLost()).toList();
			assertThat(renewer.size()).isEqualTo(held.size());
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(held)
					.allSatisfy((lease) -> assertThat(client.renewalsOf(lease.renewal().key())).isNotEmpty()));
		}
		finally {
			registrars.shutdownNow();
		}
	}

	private static Instant at(long millis) {
		return T0.plusMillis(millis);
	}

}
