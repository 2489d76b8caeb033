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

import io.distlock.store.LockClient;
import io.distlock.store.Renewal;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * One {@link LockClient#renewAll batch renewal}, run on a thread of its own so that a
 * call that hangs until its command timeout holds up neither the renewal tick nor the
 * other batches; it hands its answer back to be applied by the next tick.
 *
 * <p>
 * Whatever the call ends with, an answer or any {@link Throwable}, it is handed back, so
 * that no lease waits for an answer that never comes.
 */
final class RenewalCall implements Runnable {

	private final LockClient client;

	private final Clock clock;

	private final List<Lease> batch;

	private final Instant sentAt;

	private final Consumer<RenewalCall> onAnswer;

	private volatile boolean @Nullable [] renewed;

	private volatile @Nullable Throwable failure;

	private volatile @Nullable Instant answeredAt;

	/**
	 * Create the call renewing the given leases, sent now.
	 * @param client the lock store
	 * @param clock the clock all lease times are read from
	 * @param batch the leases to renew
	 * @param onAnswer given the call once it has answered or failed
	 */
	RenewalCall(LockClient client, Clock clock, List<Lease> batch, Consumer<RenewalCall> onAnswer) {
		this.client = client;
		this.clock = clock;
		this.batch = List.copyOf(batch);
		this.sentAt = clock.instant();
		this.onAnswer = onAnswer;
	}

	@Override
	public void run() {
		List<Renewal> renewals = new ArrayList<>(this.batch.size());
		this.batch.forEach((lease) -> renewals.add(lease.renewal()));
		try {
			boolean[] renewed = this.client.renewAll(renewals);
			Assert.state(renewed.length == renewals.size(), "Expected one answer per renewal");
			this.renewed = renewed;
		}
		catch (Throwable ex) {
			// Even an Error: the leases did not get longer, and are retried while they
			// last.
			this.failure = ex;
		}
		this.answeredAt = this.clock.instant();
		this.onAnswer.accept(this);
	}

	List<Lease> batch() {
		return this.batch;
	}

	Instant sentAt() {
		return this.sentAt;
	}

	/**
	 * Return when the answer arrived; only valid once the call was handed back.
	 * @return the instant of the answer or failure
	 */
	Instant answeredAt() {
		Instant answeredAt = this.answeredAt;
		Assert.state(answeredAt != null, "Not answered yet");
		return answeredAt;
	}

	/**
	 * Return what went wrong, or {@code null} if the store answered.
	 * @return the failure, or {@code null}
	 */
	@Nullable Throwable failure() {
		return this.failure;
	}

	/**
	 * Tell whether the lease at the given position of the batch was renewed.
	 * @param index the position in the batch
	 * @return whether the store renewed it; {@code false} after a failure
	 */
	boolean isRenewed(int index) {
		boolean[] renewed = this.renewed;
		return renewed != null && renewed[index];
	}

}
