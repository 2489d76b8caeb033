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

package io.distlock.test;

import java.time.Duration;
import java.util.UUID;

import io.distlock.core.AcquireResult;
import io.distlock.core.InspectableLockClient;
import io.distlock.core.LockState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour every {@link InspectableLockClient} must have when asked about a lock or
 * told to remove it: a store with that capability runs this suite in a test class of its
 * own, beside its {@link LockClientContractTests}, and returns its client, connected to a
 * real store that is empty for each test.
 */
public abstract class InspectableLockClientContractTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	/**
	 * Return the client under test, connected to a store that is empty for each test.
	 * @return the client under test
	 */
	protected abstract InspectableLockClient client();

	@Test
	void keyNeverLockedIsNotHeldAndHasNoFencingToken() {
		assertThat(client().inspect("k")).isEqualTo(new LockState(false, null, null, 0, null));
	}

	@Test
	void heldLockShowsItsLeaseAndLastFencingTokenButNotItsOwnerToken() {
		String owner = owner();
		long token = acquired(client().tryAcquire("k", owner, TTL));
		LockState state = client().inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.remainingLease()).isPositive().isLessThanOrEqualTo(TTL);
		assertThat(state.lastFencingToken()).isEqualTo(token);
		assertThat(state.holder()).isNotBlank().isNotEqualTo(owner);
		assertThat(state.toString()).doesNotContain(owner);
	}

	@Test
	void holderStaysTheSameWhileOneAcquisitionHoldsTheLockAndDiffersForTheNext() {
		String first = owner();
		client().tryAcquire("k", first, TTL);
		String holder = client().inspect("k").holder();
		assertThat(client().inspect("k").holder()).isEqualTo(holder);
		client().release("k", first);
		client().tryAcquire("k", owner(), TTL);
		assertThat(client().inspect("k").holder()).isNotNull().isNotEqualTo(holder);
	}

	@Test
	void releasedLockIsNotHeldButKeepsItsLastFencingToken() {
		String owner = owner();
		long token = acquired(client().tryAcquire("k", owner, TTL));
		client().release("k", owner);
		assertThat(client().inspect("k")).isEqualTo(new LockState(false, null, token, 0, null));
	}

	@Test
	void forceReleaseRemovesAnotherOwnersLockWhoseOwnerThenNoLongerHoldsIt() {
		String owner = owner();
		client().tryAcquire("k", owner, TTL);
		assertThat(client().forceRelease("k")).isTrue();
		assertThat(client().inspect("k").held()).isFalse();
		assertThat(client().isHeld("k", owner)).isFalse();
		assertThat(client().renew("k", owner, TTL)).isFalse();
		assertThat(client().release("k", owner)).isFalse();
	}

	@Test
	void forceReleaseOfAFreeKeyAnswersFalse() {
		assertThat(client().forceRelease("k")).isFalse();
	}

	@Test
	void nextAcquisitionAfterAForceReleaseGetsAGreaterFencingToken() {
		long token = acquired(client().tryAcquire("k", owner(), TTL));
		client().forceRelease("k");
		assertThat(client().inspect("k").lastFencingToken()).isEqualTo(token);
		assertThat(acquired(client().tryAcquire("k", owner(), TTL))).isGreaterThan(token);
	}

	@Test
	void forceReleaseLeavesOtherLocksAlone() {
		String owner = owner();
		client().tryAcquire("a", owner(), TTL);
		client().tryAcquire("b", owner, TTL);
		client().forceRelease("a");
		assertThat(client().isHeld("b", owner)).isTrue();
	}

	/**
	 * Return a new owner token, unique like the ones the engine makes.
	 * @return a new owner token
	 */
	protected static String owner() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Return the fencing token of an acquire result that must have taken the lock.
	 * @param result the result
	 * @return its fencing token
	 */
	protected static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
