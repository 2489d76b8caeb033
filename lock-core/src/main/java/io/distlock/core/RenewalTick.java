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

package io.distlock.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * One pass of the {@link LeaseRenewer} over its leases: drop those the
 * {@link LeaseStopPolicy} stops, renew those due in batches of at most 1000, apply each
 * lease's result, and tell when the next lease is due.
 *
 * <p>
 * A renewal that finds the lock gone reports the lease lost at once; one that fails (the
 * store is unreachable, or anything else went wrong) is retried until the lease would
 * have run out, and only then reported lost. Runs are not thread-safe: the renewer never
 * lets two overlap.
 */
final class RenewalTick {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private static final int MAX_BATCH = 1000;

	private final LockClient client;

	private final Clock clock;

	private final LeaseStopPolicy stopPolicy;

	private final Set<Lease> leases;

	/**
	 * Create a tick over the given registry of leases.
	 * @param client the lock store
	 * @param clock the clock all lease times are read from
	 * @param stopPolicy decides when a lease is no longer renewed
	 * @param leases the registered leases, shared with the renewer
	 */
	RenewalTick(LockClient client, Clock clock, LeaseStopPolicy stopPolicy, Set<Lease> leases) {
		this.client = client;
		this.clock = clock;
		this.stopPolicy = stopPolicy;
		this.leases = leases;
	}

	/**
	 * Renew the leases that are due and return when the next one will be.
	 * @return when the next lease is due, or {@code null} if none is left
	 */
	@Nullable Instant run() {
		Instant now = this.clock.instant();
		List<Lease> due = new ArrayList<>();
		Instant next = null;
		for (Lease lease : this.leases) {
			if (shouldStop(lease, now)) {
				this.leases.remove(lease);
			}
			else if (lease.schedule().isDue(now)) {
				due.add(lease);
			}
			else {
				next = earlier(next, lease.schedule().dueAt());
			}
		}
		for (int from = 0; from < due.size(); from += MAX_BATCH) {
			renew(due.subList(from, Math.min(due.size(), from + MAX_BATCH)));
		}
		for (Lease lease : due) {
			// Lost and cancelled leases have left the registry and need no tick.
			if (this.leases.contains(lease)) {
				next = earlier(next, lease.schedule().dueAt());
			}
		}
		return next;
	}

	private boolean shouldStop(Lease lease, Instant now) {
		if (lease.isCancelled()) {
			return true;
		}
		String reason = this.stopPolicy.stopReason(lease, now);
		if (reason == null) {
			return false;
		}
		logger.warn("Stopped renewing lock '" + lease.renewal().key() + "' because " + reason
				+ "; it expires within its ttl of " + lease.renewal().ttl().toMillis() + "ms");
		return true;
	}

	private void renew(List<Lease> due) {
		// A lease cancelled since the scan is left out: its lock is being released.
		List<Lease> batch = new ArrayList<>(due.size());
		List<Renewal> renewals = new ArrayList<>(due.size());
		for (Lease lease : due) {
			if (!lease.isCancelled()) {
				batch.add(lease);
				renewals.add(lease.renewal());
			}
		}
		if (batch.isEmpty()) {
			return;
		}
		Instant sentAt = this.clock.instant();
		boolean[] renewed;
		try {
			renewed = this.client.renewAll(renewals);
			Assert.state(renewed.length == batch.size(), "Expected one answer per renewal");
		}
		catch (Throwable ex) {
			// Whatever went wrong, the leases did not get longer: retry while they last.
			if (ex instanceof Error) {
				logger.warn("Renewal of " + batch.size() + " lock(s) failed; retrying until their leases run out", ex);
			}
			else {
				logger.debug("Renewal of " + batch.size() + " lock(s) failed; retrying until their leases run out", ex);
			}
			Instant now = this.clock.instant();
			for (Lease lease : batch) {
				if (!lease.schedule().retry(now)) {
					lost(lease);
				}
			}
			return;
		}
		int lost = 0;
		for (int i = 0; i < renewed.length; i++) {
			Lease lease = batch.get(i);
			if (renewed[i]) {
				lease.schedule().renewed(sentAt);
			}
			else {
				lost++;
				lost(lease);
			}
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Renewed " + (batch.size() - lost) + " of " + batch.size() + " lease(s) in "
					+ Duration.between(sentAt, this.clock.instant()).toMillis() + "ms");
		}
	}

	private void lost(Lease lease) {
		if (this.leases.remove(lease) && !lease.isCancelled()) {
			try {
				lease.onLost().run();
			}
			catch (Throwable ex) {
				// The callback is the caller's code: its failure must not stop the
				// others.
				logger.warn("Lost-lock callback for '" + lease.renewal().key() + "' failed", ex);
			}
		}
	}

	private static Instant earlier(@Nullable Instant current, Instant candidate) {
		return (current == null || candidate.isBefore(current)) ? candidate : current;
	}

}
