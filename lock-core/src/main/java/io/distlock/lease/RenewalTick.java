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
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One pass of the {@link LeaseRenewer} over its leases: apply the answers of renewal
 * calls ({@link RenewalAnswers}), report the leases that ran out or that the
 * {@link LeaseStopPolicy} stops, hand those due to {@link RenewalCall renewal calls} in
 * batches of at most 1000, and tell when the next lease is due or runs out.
 *
 * <p>
 * A pass never waits for a call: a lease whose call is under way is not renewed again,
 * and if it runs out before the answer came, it is reported lost at that instant, and a
 * late answer does not bring it back. A renewal that finds the lock gone reports the
 * lease lost at once; one that fails is retried until the lease runs out. A lost lease is
 * {@link Lease#isLost() marked} at once, and its callback run on the executor of lost
 * callbacks, so that a slow callback delays no renewal. Runs are not thread-safe: the
 * renewer never lets two overlap, and only runs change the leases.
 *
 * <p>
 * A pass looks at every lease only when something may be due: at the time the last such
 * scan planned, or after a lease was {@link #registered() registered}. A pass that only
 * applies answers (it runs as soon as a call is answered) looks at the leases of those
 * calls alone, so that renewing many leases costs one scan per batch, not one per call.
 */
final class RenewalTick {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private static final int MAX_BATCH = 1000;

	private final LockClient client;

	private final Clock clock;

	private final LeaseStopPolicy stopPolicy;

	private final Set<Lease> leases;

	private final Executor calls;

	private final LostLeaseReporter reporter;

	private final RenewalAnswers answers;

	// Set by each registration, taken by the scan that will see its lease.
	private final AtomicBoolean registered = new AtomicBoolean();

	// When the last scan found the next lease due or running out; null when it found
	// none. Only runs read and write it.
	private @Nullable Instant scanAt;

	/**
	 * Create a tick over the given registry of leases.
	 * @param client the lock store
	 * @param clock the clock all lease times are read from
	 * @param stopPolicy decides when a lease is no longer renewed
	 * @param leases the registered leases, shared with the renewer
	 * @param calls runs the renewal calls
	 * @param reporter reports the leases found lost
	 * @param wakeUp asks for a run as soon as possible, from any thread
	 */
	RenewalTick(LockClient client, Clock clock, LeaseStopPolicy stopPolicy, Set<Lease> leases, Executor calls,
			LostLeaseReporter reporter, Runnable wakeUp) {
		this.client = client;
		this.clock = clock;
		this.stopPolicy = stopPolicy;
		this.leases = leases;
		this.calls = calls;
		this.reporter = reporter;
		this.answers = new RenewalAnswers(leases, reporter, wakeUp);
	}

	/**
	 * Renew the leases that are due and return when the next one will be due or run out.
	 * @return when to run next, or {@code null} if no lease is left
	 */
	@Nullable Instant run() {
		List<RenewalCall> applied = this.answers.applyAll();
		Instant now = this.clock.instant();
		Instant scanAt = this.scanAt;
		// Taken before the scan: a lease registered from now on gets a scan of its own.
		if (!this.registered.getAndSet(false) && scanAt != null && now.isBefore(scanAt)) {
			// Nothing is due before the planned scan but what the answers changed: a
			// failed renewal's retry, say, which brings the scan forward.
			for (RenewalCall answer : applied) {
				scanAt = nextOf(answer.batch(), scanAt);
			}
			this.scanAt = scanAt;
			return scanAt;
		}
		this.scanAt = scan(now);
		return this.scanAt;
	}

	/**
	 * Tell this tick that a lease was added to the registry: the next run looks at every
	 * lease. Call it after adding the lease and before asking the timer for a run.
	 */
	void registered() {
		this.registered.set(true);
	}

	private @Nullable Instant scan(Instant now) {
		List<Lease> due = new ArrayList<>();
		Instant next = null;
		for (Lease lease : this.leases) {
			LeaseSchedule schedule = lease.schedule();
			if (lease.isCancelled()) {
				this.leases.remove(lease);
				continue;
			}
			String reason = this.stopPolicy.stopReason(lease, now);
			if (reason != null) {
				stop(lease, reason);
			}
			else if (!now.isBefore(schedule.expiresAt())) {
				// Ran out with no renewal confirmed in time, maybe with a call still
				// hanging: another owner may take the lock from now on.
				lost(lease);
			}
			else if (lease.isRenewing()) {
				next = earlier(next, schedule.expiresAt());
			}
			else if (schedule.isDue(now)) {
				due.add(lease);
			}
			else {
				next = earlier(next, earlier(schedule.dueAt(), schedule.expiresAt()));
			}
		}
		for (int from = 0; from < due.size(); from += MAX_BATCH) {
			send(due.subList(from, Math.min(due.size(), from + MAX_BATCH)));
		}
		return nextOf(due, next);
	}

	/**
	 * Return the earlier of the given instant and the next time any of the given leases
	 * that are still registered is due or runs out.
	 */
	private @Nullable Instant nextOf(List<Lease> leases, @Nullable Instant next) {
		for (Lease lease : leases) {
			if (this.leases.contains(lease)) {
				LeaseSchedule schedule = lease.schedule();
				next = earlier(next, lease.isRenewing() ? schedule.expiresAt() : schedule.dueAt());
			}
		}
		return next;
	}

	private void send(List<Lease> due) {
		// A lease cancelled since the scan is left out: its lock is being released.
		List<Lease> batch = new ArrayList<>(due.size());
		for (Lease lease : due) {
			if (!lease.isCancelled()) {
				batch.add(lease);
				lease.renewing(true);
			}
		}
		if (batch.isEmpty()) {
			return;
		}
		try {
			this.calls.execute(new RenewalCall(this.client, this.clock, batch, this.answers::add));
		}
		catch (Throwable ex) {
			// No thread free for the call (all wait for a store that does not answer):
			// retry while the leases last, as after any failed renewal.
			logger.debug("Could not start the renewal of " + batch.size() + " lock(s); retrying", ex);
			Instant now = this.clock.instant();
			for (Lease lease : batch) {
				lease.renewing(false);
				lease.schedule().retry(now);
			}
		}
	}

	private void stop(Lease lease, String reason) {
		if (this.leases.remove(lease) && !lease.isCancelled()) {
			logger.warn("Stopped renewing lock '" + lease.renewal().key() + "' because " + reason
					+ "; reporting it lost (it expires within its ttl of " + lease.renewal().ttl().toMillis() + "ms)");
			this.reporter.report(lease);
		}
	}

	private void lost(Lease lease) {
		if (this.leases.remove(lease)) {
			this.reporter.report(lease);
		}
	}

	private static Instant earlier(@Nullable Instant current, Instant candidate) {
		return (current == null || candidate.isBefore(current)) ? candidate : current;
	}

}
