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

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

/**
 * The life cycle of a {@link LeaseRenewer}: starts, stops and closes its threads and its
 * timer, and adds each lease so that it is either renewed or reported lost, whatever stop
 * or close races the registration.
 *
 * <p>
 * Stopping is not final: a start or a registration brings the renewer back, with the
 * threads it made for itself made again; closing is. Either reports the leases still
 * registered lost, since nothing renews them any more.
 */
final class RenewerLifecycle {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final Set<Lease> leases;

	private final RenewalTick tick;

	private final RenewalTimer timer;

	private final RenewerThreads threads;

	private final LostLeaseReporter reporter;

	// Held to start, stop and close, never while renewing.
	private final ReentrantLock lock = new ReentrantLock();

	private volatile boolean running;

	private volatile boolean closed;

	/**
	 * Create the life cycle of a renewer.
	 * @param leases the registered leases, shared with the renewer and its tick
	 * @param tick the tick that renews the leases
	 * @param timer the timer that runs the tick
	 * @param threads the threads of the renewer
	 * @param reporter reports the leases that a stop or close leaves unrenewed
	 */
	RenewerLifecycle(Set<Lease> leases, RenewalTick tick, RenewalTimer timer, RenewerThreads threads,
			LostLeaseReporter reporter) {
		this.leases = leases;
		this.tick = tick;
		this.timer = timer;
		this.threads = threads;
		this.reporter = reporter;
	}

	/**
	 * Add a lease and plan its first renewal, starting the renewer if it is not running.
	 * @param lease the lease
	 * @throws IllegalStateException if the renewer was closed
	 * @throws org.springframework.core.task.TaskRejectedException if the scheduler did
	 * not take the renewal
	 */
	void add(Lease lease) {
		while (true) {
			if (!this.running) {
				startOrFail(lease.renewal().key());
			}
			this.leases.add(lease);
			this.tick.registered();
			try {
				this.timer.runNoLaterThan(lease.schedule().dueAt());
			}
			catch (RuntimeException ex) {
				// Nothing would renew the lease, or report it lost: the caller must not
				// rely on it.
				this.leases.remove(lease);
				throw ex;
			}
			if (this.running || !this.leases.remove(lease)) {
				// Running, or stopped since by a stop that reported the lease lost.
				return;
			}
			// Stopped or closed before the lease was added: nothing renews it. Start
			// again, or fail if closed.
		}
	}

	/**
	 * Start renewing, unless closed.
	 */
	void start() {
		this.lock.lock();
		try {
			if (!this.closed) {
				doStart();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop renewing until started again, reporting the leases still registered lost.
	 */
	void stop() {
		this.lock.lock();
		try {
			if (this.running) {
				this.running = false;
				halt("stopped");
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Tell whether the renewer was started and not stopped or closed since.
	 * @return whether it is running
	 */
	boolean isRunning() {
		return this.running;
	}

	/**
	 * Stop renewing for good, reporting the leases still registered lost.
	 */
	void close() {
		this.lock.lock();
		try {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.running = false;
			halt("closed");
		}
		finally {
			this.lock.unlock();
		}
	}

	private void startOrFail(String key) {
		this.lock.lock();
		try {
			Assert.state(!this.closed, () -> "Cannot renew lock '" + key + "': the lease renewer was closed");
			doStart();
		}
		finally {
			this.lock.unlock();
		}
	}

	// Under the lock.
	private void doStart() {
		if (this.running) {
			return;
		}
		this.threads.restart();
		this.timer.start();
		this.running = true;
		if (!this.leases.isEmpty()) {
			// Added by a registration that raced a stop, and planned by no run.
			this.tick.registered();
			this.timer.runNow();
		}
	}

	// Under the lock.
	private void halt(String how) {
		this.timer.stop();
		List<Lease> stopped = new ArrayList<>();
		for (Lease lease : this.leases) {
			// Only a lease this halt took out of the registry is reported: one that a
			// racing registration took back out first is registered again by it.
			if (this.leases.remove(lease)) {
				stopped.add(lease);
			}
		}
		if (!stopped.isEmpty()) {
			logger.warn("Stopped renewing " + stopped.size() + " held lock(s) because the lease renewer was " + how
					+ "; reporting them lost (they expire within their ttl)");
			stopped.forEach(this.reporter::report);
		}
		this.threads.shutdown();
	}

}
