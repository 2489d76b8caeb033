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

import java.time.Duration;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that {@link LeaderElection#setTtl(Duration)} refuses a lease that renewal cannot
 * keep, and accepts the minimum.
 */
class LeaderElectionTtlTests {

	private final LeaderElection election = new LeaderElection(new UnusedLockClient(),
			new LockWaiter(Duration.ofSeconds(1)), "reports");

	@Test
	void ttlBelowTheRenewalMinimumIsRefusedSayingHowItWasRead() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.election.setTtl(Duration.ofMillis(10)))
			.withMessageContaining("Leader election 'reports': a ttl of 10ms is too short for a lease that is "
					+ "renewed: it must be at least 500ms")
			.withMessageContaining("Duration.ofSeconds(10)");
	}

	@Test
	void ttlOfTheRenewalMinimumIsAccepted() {
		this.election.setTtl(Duration.ofMillis(500));
		assertThat(this.election).extracting("ttl").isEqualTo(Duration.ofMillis(500));
	}

	/**
	 * Setting the ttl talks to no store.
	 */
	static class UnusedLockClient implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean release(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			throw new UnsupportedOperationException();
		}

	}

}
