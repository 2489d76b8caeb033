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

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The answers of the {@link RenewalCall renewal calls} of a {@link RenewalTick}: a call
 * that is answered, from any thread, is queued and asks for a run, and the next run
 * applies it to the leases of its batch.
 *
 * <p>
 * A lease renewed in time is due again a third of its ttl after the call was sent; one
 * whose renewal failed is retried until it runs out; one that the store no longer holds,
 * or that ran out before the answer came, is reported lost. A lease cancelled or reported
 * lost while its call was under way stays so: a late "renewed" does not bring it back.
 */
final class RenewalAnswers {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final Set<Lease> leases;

	private final LostLeaseReporter reporter;

	private final Runnable wakeUp;

	private final Queue<RenewalCall> answered = new ConcurrentLinkedQueue<>();

	/**
	 * Create the answers over the given registry of leases.
	 * @param leases the registered leases, shared with the renewer
	 * @param reporter reports the leases found lost
	 * @param wakeUp asks for a run as soon as possible, from any thread
	 */
	RenewalAnswers(Set<Lease> leases, LostLeaseReporter reporter, Runnable wakeUp) {
		this.leases = leases;
		this.reporter = reporter;
		this.wakeUp = wakeUp;
	}

	/**
	 * Queue the answer of a call and ask for a run to apply it; callable from any thread.
	 * @param call the answered call
	 */
	void add(RenewalCall call) {
		this.answered.add(call);
		this.wakeUp.run();
	}

	/**
	 * Apply the answers queued so far, in the order they came; only runs call it.
	 * @return the calls whose answers were applied
	 */
	List<RenewalCall> applyAll() {
		List<RenewalCall> applied = new ArrayList<>();
		RenewalCall call;
		while ((call = this.answered.poll()) != null) {
			apply(call);
			applied.add(call);
		}
		return applied;
	}

	private void apply(RenewalCall call) {
		Throwable failure = call.failure();
		Instant answeredAt = call.answeredAt();
		if (failure != null) {
			String message = "Renewal of " + call.batch().size()
					+ " lock(s) failed; retrying until their leases run out";
			if (failure instanceof Error) {
				logger.warn(message, failure);
			}
			else {
				logger.debug(message, failure);
			}
		}
		int renewed = 0;
		for (int i = 0; i < call.batch().size(); i++) {
			Lease lease = call.batch().get(i);
			lease.renewing(false);
			LeaseSchedule schedule = lease.schedule();
			if (!this.leases.contains(lease)) {
				// Cancelled, or reported lost while the call was under way: a late
				// "renewed" does not bring it back, its holder was told.
				continue;
			}
			if (!answeredAt.isBefore(schedule.expiresAt())) {
				lost(lease);
			}
			else if (failure != null) {
				schedule.retry(answeredAt);
			}
			else if (call.isRenewed(i)) {
				schedule.renewed(call.sentAt());
				renewed++;
			}
			else {
				lost(lease);
			}
		}
		if (failure == null && logger.isDebugEnabled()) {
			logger.debug("Renewed " + renewed + " of " + call.batch().size() + " lease(s) in "
					+ Duration.between(call.sentAt(), answeredAt).toMillis() + "ms");
		}
	}

	private void lost(Lease lease) {
		if (this.leases.remove(lease)) {
			this.reporter.report(lease);
		}
	}

}
