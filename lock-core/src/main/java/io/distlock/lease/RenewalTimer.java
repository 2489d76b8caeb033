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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.TaskScheduler;

/**
 * Runs the renewal tick as one-shot tasks on a {@link TaskScheduler}: each run schedules
 * the next at the instant the tick returns, runs never overlap, and a failing run never
 * ends the ticking.
 *
 * <p>
 * At most one run is pending. A run asked for sooner than the pending one replaces it, so
 * that a lease registered due before the pending run is renewed in time; one asked for
 * later is already covered, since every run scans all leases.
 * <p>
 * If the scheduler rejects a run (it is shutting down, or full), the pending one stays;
 * if there is none, the next request (a registration, or a renewal call that answered)
 * tries again. That is logged at ERROR once per outage.
 */
final class RenewalTimer {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	// After a run failed unexpectedly, run again this soon rather than never.
	private static final Duration RETRY_FAILED_RUN = Duration.ofMillis(100);

	private final TaskScheduler scheduler;

	private final Supplier<@Nullable Instant> tick;

	// Held only to read or replace the pending run, never while a tick runs.
	private final ReentrantLock pendingLock = new ReentrantLock();

	// Held while a tick runs: runs never overlap, even on a scheduler with many threads.
	private final ReentrantLock runLock = new ReentrantLock();

	private @Nullable PendingRun pending;

	private volatile boolean stopped;

	// Whether scheduling failed last time, so that an outage is logged once.
	private volatile boolean failing;

	/**
	 * Create a timer that runs the given tick on the given scheduler.
	 * @param scheduler the scheduler to run the tick on
	 * @param tick the tick, returning when to run next, or {@code null} for "only when
	 * asked to"
	 */
	RenewalTimer(TaskScheduler scheduler, Supplier<@Nullable Instant> tick) {
		this.scheduler = scheduler;
		this.tick = tick;
	}

	/**
	 * Make sure that the tick runs at the given instant or earlier.
	 * @param at the latest instant for the next run
	 * @throws org.springframework.core.task.TaskRejectedException if the scheduler
	 * rejected the run; a run pending before is kept
	 */
	void runNoLaterThan(Instant at) {
		this.pendingLock.lock();
		try {
			PendingRun current = this.pending;
			if (this.stopped || (current != null && !at.isBefore(current.at))) {
				return;
			}
			PendingRun run = new PendingRun(at);
			// Scheduled before the pending run is cancelled: if the scheduler rejects
			// it, the pending run still comes.
			run.future = this.scheduler.schedule(run, at);
			if (current != null) {
				current.cancel();
			}
			this.pending = run;
			if (this.failing) {
				this.failing = false;
				logger.info("Lease renewal is scheduled again");
			}
		}
		finally {
			this.pendingLock.unlock();
		}
	}

	/**
	 * Make sure that the tick runs as soon as possible; callable from any thread, never
	 * throws.
	 */
	void runNow() {
		reschedule(this.scheduler.getClock().instant());
	}

	/**
	 * Schedule runs again after {@link #stop()}; runs are only asked for from now on.
	 */
	void start() {
		this.pendingLock.lock();
		try {
			this.stopped = false;
		}
		finally {
			this.pendingLock.unlock();
		}
	}

	/**
	 * Cancel the pending run and schedule none until {@link #start() started} again; wait
	 * up to five seconds for a run in progress to finish.
	 */
	void stop() {
		this.pendingLock.lock();
		try {
			this.stopped = true;
			if (this.pending != null) {
				this.pending.cancel();
				this.pending = null;
			}
		}
		finally {
			this.pendingLock.unlock();
		}
		// A run in progress may still report leases lost: let it finish first.
		try {
			if (this.runLock.tryLock(5, TimeUnit.SECONDS)) {
				this.runLock.unlock();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void run(PendingRun run) {
		this.pendingLock.lock();
		try {
			// A run cancelled too late to stop it must not forget its successor.
			if (this.pending == run) {
				this.pending = null;
			}
		}
		finally {
			this.pendingLock.unlock();
		}
		this.runLock.lock();
		try {
			if (!this.stopped) {
				runTick();
			}
		}
		finally {
			this.runLock.unlock();
		}
	}

	private void runTick() {
		Instant next;
		try {
			next = this.tick.get();
		}
		catch (Throwable ex) {
			// Never let the ticking die: every held lock depends on it.
			logger.warn("Lease renewal failed unexpectedly; retrying", ex);
			next = this.scheduler.getClock().instant().plus(RETRY_FAILED_RUN);
		}
		if (next != null) {
			reschedule(next);
		}
	}

	private void reschedule(Instant at) {
		try {
			runNoLaterThan(at);
		}
		catch (Throwable ex) {
			if (!this.failing) {
				this.failing = true;
				logger.error("Could not schedule the next lease renewal; held locks are neither renewed nor reported "
						+ "lost until the scheduler takes a run again, tried at the next registration", ex);
			}
			else {
				logger.debug("Could not schedule the next lease renewal", ex);
			}
		}
	}

	/**
	 * One scheduled run of the tick.
	 */
	private final class PendingRun implements Runnable {

		private final Instant at;

		private @Nullable ScheduledFuture<?> future;

		PendingRun(Instant at) {
			this.at = at;
		}

		@Override
		public void run() {
			RenewalTimer.this.run(this);
		}

		void cancel() {
			if (this.future != null) {
				this.future.cancel(false);
			}
		}

	}

}
