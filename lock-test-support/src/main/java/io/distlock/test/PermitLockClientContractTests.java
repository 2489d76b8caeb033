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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.store.AcquireResult;
import io.distlock.store.PermitLockClient;
import io.distlock.store.Renewal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The behaviour every {@link PermitLockClient} must have when it hands out a key as a
 * number of permits: a store with permits runs this suite in a test class of its own,
 * beside its {@link LockClientContractTests} (or {@link FairLockClientContractTests}),
 * and returns its client, connected to a real store that is empty for each test.
 *
 * <pre class="code">
 * class MyPermitLockTests extends PermitLockClientContractTests {
 *
 *     &#64;Override
 *     protected PermitLockClient client() {
 *         return this.client;
 *     }
 *
 * }
 * </pre>
 *
 * <p>
 * It covers the limit of holders at once (each caller's own), one permit per owner token,
 * owner-checked release, renewal, checks and release through the
 * {@link PermitLockClient#permitLeaseKey lease key} (batched renewal mixing permits and
 * exclusive locks included), permit leases that expire, the independence of permits and
 * the exclusive lock of the same key, and fencing tokens shared by both.
 */
public abstract class PermitLockClientContractTests {

	static final Duration TTL = Duration.ofSeconds(10);

	static final Duration SHORT_TTL = Duration.ofMillis(300);

	/**
	 * Return the client under test, connected to a store that is empty for each test.
	 * @return the client under test
	 */
	protected abstract PermitLockClient client();

	@Test
	void atMostThePermittedNumberOfOwnersHoldAPermit() {
		for (int i = 0; i < 3; i++) {
			assertThat(client().tryAcquirePermit("k", owner(), TTL, 3)).isInstanceOf(AcquireResult.Acquired.class);
		}
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 3)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isPositive().isLessThanOrEqualTo(TTL));
	}

	@Test
	void callerBeyondTheLimitIsBusyUntilTheEarliestLeaseExpires() {
		client().tryAcquirePermit("k", owner(), TTL, 2);
		client().tryAcquirePermit("k", owner(), Duration.ofSeconds(3), 2);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 2)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isGreaterThan(Duration.ofSeconds(2))
					.isLessThanOrEqualTo(Duration.ofSeconds(3)));
	}

	@Test
	void onePermitIsExclusiveAmongPermitCallers() {
		String holder = owner();
		assertThat(client().tryAcquirePermit("k", holder, TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 1)).isInstanceOf(AcquireResult.Busy.class);
		client().releasePermit("k", holder);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void eachCallerAppliesItsOwnLimit() {
		client().tryAcquirePermit("k", owner(), TTL, 5);
		client().tryAcquirePermit("k", owner(), TTL, 5);
		client().tryAcquirePermit("k", owner(), TTL, 5);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 3)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 4)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 5)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 5)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void ownerHoldingAPermitIsBusyOnASecondAttemptAndStillHoldsOnlyOne() {
		String owner = owner();
		client().tryAcquirePermit("k", owner, TTL, 3);
		assertThat(client().tryAcquirePermit("k", owner, TTL, 3)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().isHeld(client().permitLeaseKey("k"), owner)).isTrue();
		// Two slots are left: the second attempt took none.
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 3)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 3)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().releasePermit("k", owner)).isTrue();
		assertThat(client().releasePermit("k", owner)).as("one permit, released once").isFalse();
	}

	@Test
	void releaseIsOwnerCheckedAndFreesExactlyThatHoldersPermit() {
		String first = owner();
		String second = owner();
		String leaseKey = client().permitLeaseKey("k");
		client().tryAcquirePermit("k", first, TTL, 2);
		client().tryAcquirePermit("k", second, TTL, 2);
		assertThat(client().releasePermit("k", owner())).as("release by no holder").isFalse();
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 2)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().releasePermit("k", first)).isTrue();
		assertThat(client().isHeld(leaseKey, first)).isFalse();
		assertThat(client().isHeld(leaseKey, second)).isTrue();
		assertThat(client().releasePermit("k", first)).isFalse();
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 2)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 2)).isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void releaseOfAKeyWithoutPermitsAnswersFalse() {
		assertThat(client().releasePermit("never", owner())).isFalse();
		assertThat(client().isHeld(client().permitLeaseKey("never"), owner())).isFalse();
	}

	@Test
	void releaseThroughTheLeaseKeyReleasesThePermit() {
		String owner = owner();
		String leaseKey = client().permitLeaseKey("k");
		client().tryAcquirePermit("k", owner, TTL, 1);
		assertThat(client().release(leaseKey, owner())).as("by no holder").isFalse();
		assertThat(client().release(leaseKey, owner)).isTrue();
		assertThat(client().isHeld(leaseKey, owner)).isFalse();
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void renewalThroughTheLeaseKeyKeepsAPermitPastItsTtl() throws Exception {
		String owner = owner();
		String leaseKey = client().permitLeaseKey("k");
		client().tryAcquirePermit("k", owner, SHORT_TTL, 1);
		assertThat(client().renew(leaseKey, owner(), TTL)).as("by no holder").isFalse();
		assertThat(client().renew(leaseKey, owner, TTL)).isTrue();
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld(leaseKey, owner)).isTrue();
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 1)).isInstanceOfSatisfying(AcquireResult.Busy.class,
				(busy) -> assertThat(busy.remainingTtl()).isGreaterThan(SHORT_TTL));
	}

	@Test
	void renewalAfterTheReleaseDoesNotBringThePermitBack() {
		String owner = owner();
		String leaseKey = client().permitLeaseKey("k");
		client().tryAcquirePermit("k", owner, TTL, 1);
		client().releasePermit("k", owner);
		assertThat(client().renew(leaseKey, owner, TTL)).isFalse();
		assertThat(client().renewAll(List.of(new Renewal(leaseKey, owner, TTL)))).containsExactly(false);
		assertThat(client().isHeld(leaseKey, owner)).isFalse();
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void renewAllRenewsPermitLeasesAndExclusiveLeasesTogetherEachOnItsOwn() throws Exception {
		String holder = owner();
		String permitHolder = owner();
		String otherPermitHolder = owner();
		String leaseKey = client().permitLeaseKey("k");
		client().tryAcquire("k", holder, SHORT_TTL);
		client().tryAcquirePermit("k", permitHolder, SHORT_TTL, 2);
		client().tryAcquirePermit("k", otherPermitHolder, SHORT_TTL, 2);
		boolean[] renewed = client().renewAll(List.of(new Renewal("k", holder, TTL),
				new Renewal(leaseKey, permitHolder, TTL), new Renewal(leaseKey, holder, TTL),
				new Renewal("k", permitHolder, TTL), new Renewal(client().permitLeaseKey("other"), permitHolder, TTL)));
		assertThat(renewed).containsExactly(true, true, false, false, false);
		Thread.sleep(SHORT_TTL.toMillis() + 100);
		assertThat(client().isHeld("k", holder)).as("renewed exclusive lock").isTrue();
		assertThat(client().isHeld(leaseKey, permitHolder)).as("renewed permit").isTrue();
		assertThat(client().isHeld(leaseKey, otherPermitHolder)).as("permit left out of the batch").isFalse();
	}

	@Test
	void permitOfAHolderThatNeverReleasesFreesItsSlotAfterItsTtl() {
		String crashed = owner();
		String leaseKey = client().permitLeaseKey("k");
		client().tryAcquirePermit("k", crashed, SHORT_TTL, 2);
		client().tryAcquirePermit("k", owner(), TTL, 2);
		String next = owner();
		assertThat(client().tryAcquirePermit("k", next, TTL, 2)).isInstanceOf(AcquireResult.Busy.class);
		Polling.await(TTL, "the crashed holder's permit to come back",
				() -> client().tryAcquirePermit("k", next, TTL, 2) instanceof AcquireResult.Acquired,
				() -> "no permit is free");
		assertThat(client().isHeld(leaseKey, crashed)).isFalse();
		assertThat(client().renew(leaseKey, crashed, TTL)).isFalse();
		assertThat(client().releasePermit("k", crashed)).isFalse();
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 2)).as("both permits held again")
			.isInstanceOf(AcquireResult.Busy.class);
	}

	@Test
	void permitsAndTheExclusiveLockOfOneKeyAreIndependent() {
		String exclusive = owner();
		String permitHolder = owner();
		assertThat(client().tryAcquire("k", exclusive, TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().tryAcquirePermit("k", permitHolder, TTL, 1)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().isHeld("k", permitHolder)).as("a permit is no exclusive lock").isFalse();
		assertThat(client().isHeld(client().permitLeaseKey("k"), exclusive)).as("the exclusive lock is no permit")
			.isFalse();
		assertThat(client().release("k", exclusive)).isTrue();
		assertThat(client().isHeld(client().permitLeaseKey("k"), permitHolder)).isTrue();
		assertThat(client().tryAcquire("k", owner(), TTL)).isInstanceOf(AcquireResult.Acquired.class);
		assertThat(client().releasePermit("k", permitHolder)).isTrue();
	}

	@Test
	void leaseKeyIsNoLockResourceAndDiffersPerKey() {
		assertThat(client().permitLeaseKey("k")).isNotEqualTo("k").isNotEqualTo(client().permitLeaseKey("other"));
		assertThat(client().permitLeaseKey("k")).as("the same for the same key")
			.isEqualTo(client().permitLeaseKey("k"));
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossPermitsAndTheExclusiveLock() {
		List<Long> tokens = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			List<String> holders = List.of(owner(), owner(), owner());
			for (String holder : holders) {
				tokens.add(acquired(client().tryAcquirePermit("k", holder, TTL, 3)));
			}
			holders.forEach((holder) -> client().releasePermit("k", holder));
			String exclusive = owner();
			tokens.add(acquired(client().tryAcquire("k", exclusive, TTL)));
			client().release("k", exclusive);
		}
		assertThat(tokens).hasSize(20).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void fencingTokensOfPermitsHeldAtOnceAreDistinct() {
		long first = acquired(client().tryAcquirePermit("k", owner(), TTL, 3));
		long second = acquired(client().tryAcquirePermit("k", owner(), TTL, 3));
		long exclusive = acquired(client().tryAcquire("k", owner(), TTL));
		long third = acquired(client().tryAcquirePermit("k", owner(), TTL, 3));
		assertThat(List.of(first, second, exclusive, third)).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void fewerThanOnePermitIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> client().tryAcquirePermit("k", owner(), TTL, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> client().tryAcquirePermit("k", owner(), TTL, -1));
		assertThat(client().tryAcquirePermit("k", owner(), TTL, 1)).as("nothing taken by the rejected calls")
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void neverMoreThanThePermittedHoldersAtOnceUnderLoad() throws Exception {
		int permits = 3;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger mostHolders = new AtomicInteger();
		AtomicInteger acquisitions = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				work.add(threads.submit(() -> {
					for (int i = 0; i < 10; i++) {
						String owner = owner();
						while (!(client().tryAcquirePermit("k", owner, TTL,
								permits) instanceof AcquireResult.Acquired)) {
							Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
						}
						int now = holders.incrementAndGet();
						mostHolders.accumulateAndGet(now, Math::max);
						Thread.sleep(ThreadLocalRandom.current().nextInt(2, 6));
						holders.decrementAndGet();
						assertThat(client().releasePermit("k", owner)).isTrue();
						acquisitions.incrementAndGet();
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(acquisitions).hasValue(160);
		// Equal, not at most: a limit that let in fewer than allowed would pass
		// otherwise.
		assertThat(mostHolders.get()).as("most holders at once").isEqualTo(permits);
	}

	/**
	 * Return a new owner token, unique like the ones the engine makes.
	 * @return a new owner token
	 */
	protected static String owner() {
		return UUID.randomUUID().toString();
	}

	/**
	 * Return the fencing token of an acquire result that must have taken a permit or the
	 * lock.
	 * @param result the result
	 * @return its fencing token
	 */
	protected static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
