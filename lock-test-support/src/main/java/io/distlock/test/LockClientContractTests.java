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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.store.Renewal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour every {@link LockClient} must have: a store implementation's test extends
 * this class and returns its client, connected to a real store that is empty for each
 * test.
 *
 * <pre class="code">
 * class MyLockClientTests extends LockClientContractTests {
 *
 *     &#64;Override
 *     protected LockClient client() {
 *         return this.client;
 *     }
 *
 * }
 * </pre>
 *
 * <p>
 * It covers every call of the SPI, batched renewal included. A store with fair mode
 * extends {@link FairLockClientContractTests} instead.
 */
public abstract class LockClientContractTests {

	static final Duration TTL = Duration.ofSeconds(10);

	static final Duration SHORT_TTL = Duration.ofMillis(300);

	/**
	 * Return the client under test, connected to a store that is empty for each test.
	 * @return the client under test
	 */
	protected abstract LockClient client();

	@Test
	void acquireTakesAFreeLock() {
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void acquireOfAHeldLockIsBusyWithTheRemainingLease() {
		client().tryAcquire("k", owner(), TTL);
		AcquireResult result = client().tryAcquire("k", owner(), TTL);
		assertThat(result).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isPositive().isLessThanOrEqualTo(TTL));
	}

	@Test
	void locksOfDifferentKeysAreIndependent() {
		assertThat(client().tryAcquire("a", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquire("b", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void releaseByTheOwnerFreesTheLock() {
		String owner = owner();
		client().tryAcquire("k", owner, TTL);
		assertThat(client().release("k", owner)).isTrue();
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void releaseByAnotherOwnerIsANoOp() {
		String owner = owner();
		client().tryAcquire("k", owner, TTL);
		assertThat(client().release("k", owner())).isFalse();
		assertThat(client().isHeld("k", owner)).isTrue();
	}

	@Test
	void releaseAfterExpiryDoesNotDeleteANewerOwnersLock() throws Exception {
		String first = owner();
		client().tryAcquire("k", first, SHORT_TTL);
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		String second = owner();
		assertThat(client().tryAcquire("k", second, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().release("k", first)).isFalse();
		assertThat(client().isHeld("k", second)).isTrue();
	}

	@Test
	void lockNotReleasedExpiresAfterItsTtl() throws Exception {
		client().tryAcquire("k", owner(), SHORT_TTL);
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Busy.class);
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void renewExtendsTheOwnersLease() throws Exception {
		String owner = owner();
		client().tryAcquire("k", owner, SHORT_TTL);
		assertThat(client().renew("k", owner, TTL)).isTrue();
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld("k", owner)).isTrue();
	}

	@Test
	void renewByAnotherOwnerChangesNothing() throws Exception {
		String owner = owner();
		client().tryAcquire("k", owner, SHORT_TTL);
		assertThat(client().renew("k", owner(), TTL)).isFalse();
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld("k", owner)).isFalse();
	}

	@Test
	void renewOfAnExpiredLockFails() throws Exception {
		String owner = owner();
		client().tryAcquire("k", owner, SHORT_TTL);
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().renew("k", owner, TTL)).isFalse();
		assertThat(client().isHeld("k", owner)).isFalse();
	}

	@Test
	void fencingTokensIncreaseAcrossReleasedHolders() {
		long previous = 0;
		for (int i = 0; i < 20; i++) {
			String owner = owner();
			long token = acquired(client().tryAcquire("k", owner, TTL));
			assertThat(token).isGreaterThan(previous);
			previous = token;
			client().release("k", owner);
		}
	}

	@Test
	void fencingTokensIncreaseAfterTheLockExpired() throws Exception {
		long first = acquired(client().tryAcquire("k", owner(), SHORT_TTL));
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		long second = acquired(client().tryAcquire("k", owner(), TTL));
		assertThat(second).isGreaterThan(first);
	}

	@Test
	void fencingTokensOfOneKeyAreNotResetByAnotherKey() {
		String owner = owner();
		long first = acquired(client().tryAcquire("k", owner, TTL));
		client().release("k", owner);
		acquired(client().tryAcquire("other", owner(), TTL));
		assertThat(acquired(client().tryAcquire("k", owner(), TTL))).isGreaterThan(first);
	}

	@Test
	void contendingThreadsNeverOverlap() throws Exception {
		CriticalSections sections = CriticalSections.run(16, 50, (section) -> {
			String owner = owner();
			while (!(client().tryAcquire("counter", owner, TTL) instanceof AcquireResult.Acquired)) {
				Thread.onSpinWait();
			}
			try {
				section.run();
			}
			finally {
				client().release("counter", owner);
			}
		});
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(16 * 50);
	}

	@Test
	void isHeldIsFalseForALockNeverTaken() {
		assertThat(client().isHeld("never", owner())).isFalse();
	}

	@Test
	void renewAllOfNoLeasesAnswersNothing() {
		assertThat(client().renewAll(List.of())).isEmpty();
	}

	@Test
	void renewAllAnswersForEachLeaseInOrder() throws Exception {
		String held = owner();
		String expired = owner();
		client().tryAcquire("held", held, SHORT_TTL);
		client().tryAcquire("taken", owner(), TTL);
		client().tryAcquire("expired", expired, Duration.ofMillis(50));
		Thread.sleep(150);
		boolean[] renewed = client()
			.renewAll(List.of(new Renewal("held", held, TTL), new Renewal("taken", owner(), TTL),
					new Renewal("expired", expired, TTL), new Renewal("never", owner(), TTL)));
		assertThat(renewed).containsExactly(true, false, false, false);
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld("held", held)).as("renewed past its first lease").isTrue();
		assertThat(client().isHeld("expired", expired)).as("not recreated by a renewal").isFalse();
	}

	@Test
	void renewAllRenewsAManyLeaseBatch() throws Exception {
		// Taken with a lease long enough for all of them to be taken, however slow the
		// store (a Redlock takes each on several nodes), then renewed past it.
		Duration firstLease = Duration.ofSeconds(3);
		List<Renewal> renewals = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			String owner = owner();
			acquired(client().tryAcquire("batch" + i, owner, firstLease));
			renewals.add(new Renewal("batch" + i, owner, TTL));
		}
		long renewedAt = System.nanoTime();
		boolean[] renewed = client().renewAll(renewals);
		assertThat(renewed).hasSize(100).doesNotContain(false);
		Thread.sleep(firstLease.plusMillis(100).toMillis() - (System.nanoTime() - renewedAt) / 1_000_000);
		for (Renewal renewal : renewals) {
			assertThat(client().isHeld(renewal.key(), renewal.ownerToken())).as(renewal.key()).isTrue();
		}
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
