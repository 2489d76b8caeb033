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

import io.distlock.store.AcquireResult;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockState;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The behaviour every {@link InspectableLockClient} must have when asked about a lock or
 * told to remove it: a store with that capability runs this suite in a test class of its
 * own, beside its {@link LockClientContractTests}, and returns its client, connected to a
 * real store that is empty for each test.
 *
 * <p>
 * A client that is also a {@link ReadWriteLockClient} or a {@link PermitLockClient} must
 * count the key's read holds and permit holders when inspected, and remove them (and the
 * mark of a writer waiting for readers) when force-releasing the key; those tests are
 * skipped for a client without the capability.
 */
public abstract class InspectableLockClientContractTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration SHORT_TTL = Duration.ofMillis(200);

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

	@Test
	void readHoldsAreCountedWithoutMakingTheLockHeld() {
		ReadWriteLockClient client = readWriteClient();
		client.tryAcquireRead("k", owner(), TTL);
		client.tryAcquireRead("k", owner(), TTL);
		LockState state = client().inspect("k");
		assertThat(state.readHolds()).isEqualTo(2);
		assertThat(state.held()).as("the write lock").isFalse();
		assertThat(state.holder()).isNull();
		assertThat(state.remainingLease()).isNull();
		assertThat(state.permitHolders()).isZero();
	}

	@Test
	void expiredAndReleasedReadHoldsAreNotCounted() {
		ReadWriteLockClient client = readWriteClient();
		String released = owner();
		client.tryAcquireRead("k", owner(), SHORT_TTL);
		client.tryAcquireRead("k", released, TTL);
		client.tryAcquireRead("k", owner(), TTL);
		client.releaseRead("k", released);
		assertThat(client().inspect("k").readHolds()).isBetween(1, 2);
		Polling.await(TTL, "the short read lease to be no longer counted", () -> client().inspect("k").readHolds() == 1,
				() -> String.valueOf(client().inspect("k")));
	}

	@Test
	void writeLockIsHeldWithoutReadHolds() {
		ReadWriteLockClient client = readWriteClient();
		client.tryAcquire("k", owner(), TTL);
		client.tryAcquireRead("k", owner(), TTL);
		LockState state = client().inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.readHolds()).isZero();
	}

	@Test
	void forceReleaseRemovesEveryReadHoldSoThatAWriterGetsTheLockAtOnce() {
		ReadWriteLockClient client = readWriteClient();
		String reader = owner();
		client.tryAcquireRead("k", reader, TTL);
		client.tryAcquireRead("k", owner(), TTL);
		assertThat(client().forceRelease("k")).isTrue();
		assertThat(client().inspect("k").readHolds()).isZero();
		assertThat(client.isHeld("k", reader)).isFalse();
		assertThat(client.renew("k", reader, TTL)).isFalse();
		assertThat(client.releaseRead("k", reader)).isFalse();
		assertThat(client.tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void forceReleaseRemovesTheMarkOfAWaitingWriterSoThatReadersGetInAtOnce() {
		ReadWriteLockClient client = readWriteClient();
		client.tryAcquireRead("k", owner(), TTL);
		assertThat(client.tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client.tryAcquireRead("k", owner(), TTL)).as("kept out by the waiting writer")
			.isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().forceRelease("k")).isTrue();
		assertThat(client.tryAcquireRead("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void forceReleaseOfAKeyWhoseOnlyReadHoldExpiredAnswersFalse() {
		ReadWriteLockClient client = readWriteClient();
		String reader = owner();
		client.tryAcquireRead("k", reader, SHORT_TTL);
		Polling.await(TTL, "the read lease to run out", () -> !client.isHeld("k", reader), () -> "still held");
		assertThat(client().forceRelease("k")).isFalse();
	}

	@Test
	void permitHoldersAreCountedWithoutMakingTheLockHeld() {
		PermitLockClient client = permitClient();
		client.tryAcquirePermit("k", owner(), TTL, 5);
		client.tryAcquirePermit("k", owner(), TTL, 5);
		long token = acquired(client.tryAcquirePermit("k", owner(), TTL, 5));
		LockState state = client().inspect("k");
		assertThat(state.permitHolders()).isEqualTo(3);
		assertThat(state.held()).as("the exclusive lock").isFalse();
		assertThat(state.holder()).isNull();
		assertThat(state.readHolds()).isZero();
		assertThat(state.lastFencingToken()).as("shared with the exclusive lock").isEqualTo(token);
	}

	@Test
	void expiredAndReleasedPermitLeasesAreNotCounted() {
		PermitLockClient client = permitClient();
		String released = owner();
		client.tryAcquirePermit("k", owner(), SHORT_TTL, 5);
		client.tryAcquirePermit("k", released, TTL, 5);
		client.tryAcquirePermit("k", owner(), TTL, 5);
		client.releasePermit("k", released);
		assertThat(client().inspect("k").permitHolders()).isBetween(1, 2);
		Polling.await(TTL, "the short permit lease to be no longer counted",
				() -> client().inspect("k").permitHolders() == 1, () -> String.valueOf(client().inspect("k")));
	}

	@Test
	void permitsAndTheExclusiveLockOfAKeyAreInspectedTogether() {
		PermitLockClient client = permitClient();
		client.tryAcquire("k", owner(), TTL);
		client.tryAcquirePermit("k", owner(), TTL, 2);
		LockState state = client().inspect("k");
		assertThat(state.held()).isTrue();
		assertThat(state.permitHolders()).isEqualTo(1);
	}

	@Test
	void forceReleaseRemovesEveryPermitOfTheKeySoThatAllAreFreeAgain() {
		PermitLockClient client = permitClient();
		String holder = owner();
		String leaseKey = client.permitLeaseKey("k");
		client.tryAcquirePermit("k", holder, TTL, 2);
		long token = acquired(client.tryAcquirePermit("k", owner(), TTL, 2));
		assertThat(client().forceRelease("k")).isTrue();
		assertThat(client().inspect("k").permitHolders()).isZero();
		assertThat(client.isHeld(leaseKey, holder)).isFalse();
		assertThat(client.renew(leaseKey, holder, TTL)).isFalse();
		assertThat(client.releasePermit("k", holder)).isFalse();
		assertThat(acquired(client.tryAcquirePermit("k", owner(), TTL, 2))).isGreaterThan(token);
		assertThat(client.tryAcquirePermit("k", owner(), TTL, 2)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void forceReleaseRemovesPermitsAndTheExclusiveLockOfTheKeyTogether() {
		PermitLockClient client = permitClient();
		String exclusive = owner();
		String holder = owner();
		client.tryAcquire("k", exclusive, TTL);
		client.tryAcquirePermit("k", holder, TTL, 1);
		assertThat(client().forceRelease("k")).isTrue();
		assertThat(client.isHeld("k", exclusive)).isFalse();
		assertThat(client.isHeld(client.permitLeaseKey("k"), holder)).isFalse();
		assertThat(client().inspect("k")).satisfies((state) -> {
			assertThat(state.held()).isFalse();
			assertThat(state.permitHolders()).isZero();
		});
	}

	@Test
	void forceReleaseLeavesThePermitsOfOtherKeysAlone() {
		PermitLockClient client = permitClient();
		String holder = owner();
		client.tryAcquirePermit("a", owner(), TTL, 1);
		client.tryAcquirePermit("b", holder, TTL, 1);
		client().forceRelease("a");
		assertThat(client.isHeld(client.permitLeaseKey("b"), holder)).isTrue();
	}

	private ReadWriteLockClient readWriteClient() {
		assumeTrue(client() instanceof ReadWriteLockClient, "the store has no read/write locks");
		return (ReadWriteLockClient) client();
	}

	private PermitLockClient permitClient() {
		assumeTrue(client() instanceof PermitLockClient, "the store has no permits");
		return (PermitLockClient) client();
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
