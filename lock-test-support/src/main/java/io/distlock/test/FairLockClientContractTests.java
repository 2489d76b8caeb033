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

import org.junit.jupiter.api.Test;

import io.distlock.store.AcquireResult;
import io.distlock.store.FairLockClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour every {@link FairLockClient} must have, in addition to the
 * {@link LockClientContractTests contract of every lock store}: a store with fair mode
 * extends this class instead.
 */
public abstract class FairLockClientContractTests extends LockClientContractTests {

	private static final Duration QUEUE_TIMEOUT = Duration.ofSeconds(10);

	@Override
	protected abstract FairLockClient client();

	@Test
	void fairAcquireTakesAFreeLock() {
		assertThat(client().tryAcquireFair("k", owner(), TTL, QUEUE_TIMEOUT))
			.isInstanceOf(AcquireResult.Acquired.class);
	}

	@Test
	void freedLockGoesToTheFirstQueuedWaiterNotToALaterOne() {
		String holder = owner();
		String first = owner();
		String second = owner();
		acquired(client().tryAcquireFair("k", holder, TTL, QUEUE_TIMEOUT));
		assertThat(client().tryAcquireFair("k", first, TTL, QUEUE_TIMEOUT)).isInstanceOf(AcquireResult.Busy.class);
		assertThat(client().tryAcquireFair("k", second, TTL, QUEUE_TIMEOUT)).isInstanceOf(AcquireResult.Busy.class);
		client().release("k", holder);
		assertThat(client().tryAcquireFair("k", second, TTL, QUEUE_TIMEOUT)).as("second in line")
			.isInstanceOf(AcquireResult.Busy.class);
		acquired(client().tryAcquireFair("k", first, TTL, QUEUE_TIMEOUT));
	}

	@Test
	void waiterThatLeavesTheQueueNoLongerHoldsUpTheNext() {
		String holder = owner();
		String first = owner();
		String second = owner();
		acquired(client().tryAcquireFair("k", holder, TTL, QUEUE_TIMEOUT));
		client().tryAcquireFair("k", first, TTL, QUEUE_TIMEOUT);
		client().tryAcquireFair("k", second, TTL, QUEUE_TIMEOUT);
		assertThat(client().leaveQueue("k", first)).isTrue();
		client().release("k", holder);
		acquired(client().tryAcquireFair("k", second, TTL, QUEUE_TIMEOUT));
	}

	@Test
	void leaveQueueWithoutAPlaceAnswersFalse() {
		assertThat(client().leaveQueue("k", owner())).isFalse();
	}

	@Test
	void fairAttemptWithZeroQueueTimeoutDoesNotQueue() {
		String holder = owner();
		String tryOnce = owner();
		String waiter = owner();
		acquired(client().tryAcquireFair("k", holder, TTL, QUEUE_TIMEOUT));
		assertThat(client().tryAcquireFair("k", tryOnce, TTL, Duration.ZERO)).isInstanceOf(AcquireResult.Busy.class);
		client().tryAcquireFair("k", waiter, TTL, QUEUE_TIMEOUT);
		client().release("k", holder);
		acquired(client().tryAcquireFair("k", waiter, TTL, QUEUE_TIMEOUT));
	}

}
