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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The watchdog: one thread that renews the leases of all held auto-renewed locks every
 * third of their ttl, so that a long task keeps its lock and a crashed holder's lock
 * expires after one ttl.
 *
 * <p>
 * Leases due at about the same time are renewed together in one
 * {@link LockClient#renewAll batch}. A renewal that finds the lock gone reports the lease
 * lost at once; one that cannot reach the store is retried until the lease would have run
 * out, and only then reported lost. Renewal stops, with a warning, when the holder thread
 * died or was interrupted, or when the lock was held longer than the maximum hold time,
 * so a leaked lock is not renewed forever. Registering and cancelling a lease are
 * constant-time map operations, safe on virtual threads.
 */
public final class LeaseRenewer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private static final int MAX_BATCH = 1000;

	private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(60);

	private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	// Marks "no lease registered since the last scan began" in earliestRegistered.
	private static final long NONE = Long.MIN_VALUE;

	private final LockClient client;

	private final long maxHoldNanos;

	private final Set<Lease> leases = ConcurrentHashMap.newKeySet();

	// The earliest due time among leases registered since the worker's last scan began:
	// a lease registered during a scan may be missed by it, and must not be slept past.
	private final AtomicLong earliestRegistered = new AtomicLong(NONE);

	private final Object lifecycleMonitor = new Object();

	private volatile @Nullable Thread thread;

	// When the worker means to wake up next; a new lease due sooner unparks it.
	private volatile long wakeAt = System.nanoTime();

	private volatile boolean closed;

	/**
	 * Create a renewer for the leases of the given store.
	 * @param client the lock store
	 * @param maxHold how long a lock is renewed at most
	 */
	public LeaseRenewer(LockClient client, Duration maxHold) {
		Assert.notNull(client, "'client' must not be null");
		Assert.isTrue(maxHold != null && maxHold.toNanos() > 0, "'maxHold' must be positive");
		this.client = client;
		this.maxHoldNanos = maxHold.toNanos();
	}

	/**
	 * Start renewing a lease: first after a third of its ttl, then every third of it.
	 * Renewal stops when the lease is cancelled, found lost, its holder (the calling
	 * thread) ends or is interrupted, or the maximum hold time has passed.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param ttl the lease time
	 * @param onLost called once, on the renewal thread, when the lock is found lost
	 * @return the lease, to cancel before the lock is released
	 * @throws IllegalStateException if this renewer was closed
	 */
	public Lease register(String key, String ownerToken, Duration ttl, Runnable onLost) {
		return register(key, ownerToken, ttl, System.nanoTime(), onLost);
	}

	/**
	 * Start renewing a lease that started at the given time: when the acquisition was
	 * sent, since its lease ran from the moment Redis took it, a round trip before the
	 * answer arrived.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param ttl the lease time
	 * @param startNanos the {@link System#nanoTime()} at which the acquisition was sent
	 * @param onLost called once, on the renewal thread, when the lock is found lost
	 * @return the lease, to cancel before the lock is released
	 */
	public Lease register(String key, String ownerToken, Duration ttl, long startNanos, Runnable onLost) {
		Assert.state(!this.closed, () -> "Cannot renew lock '" + key + "': the lease renewer was closed");
		Lease lease = new Lease(new Renewal(key, ownerToken, ttl), Thread.currentThread(), startNanos, onLost);
		this.leases.add(lease);
		this.earliestRegistered.accumulateAndGet(lease.dueNanos, LeaseRenewer::earlier);
		Thread current = this.thread;
		if (current == null) {
			start();
		}
		else if (lease.dueNanos - this.wakeAt < 0) {
			LockSupport.unpark(current);
		}
		return lease;
	}

	/**
	 * Return how many leases are being renewed.
	 * @return the number of leases
	 */
	public int size() {
		return this.leases.size();
	}

	/**
	 * Stop the renewal thread. Leases still registered are no longer renewed and expire
	 * within their ttl; registering new ones fails.
	 */
	@Override
	public void close() {
		Thread current;
		synchronized (this.lifecycleMonitor) {
			this.closed = true;
			current = this.thread;
		}
		if (current != null) {
			LockSupport.unpark(current);
			try {
				current.join(TimeUnit.SECONDS.toMillis(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		if (!this.leases.isEmpty()) {
			logger.warn("Stopped renewing " + this.leases.size()
					+ " held lock(s) because the lease renewer was closed; they expire within their ttl");
			this.leases.clear();
		}
	}

	private void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.thread == null && !this.closed) {
				Thread thread = new Thread(this::run, "distlock-lease-renewer");
				thread.setDaemon(true);
				thread.start();
				this.thread = thread;
			}
		}
	}

	private void run() {
		while (!this.closed) {
			long next;
			try {
				next = renewDueLeases();
			}
			catch (RuntimeException ex) {
				// Never let the one renewal thread die: every held lock depends on it.
				logger.warn("Lease renewal failed unexpectedly; retrying", ex);
				next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
			}
			// Published before reading earliestRegistered, while register() does the
			// opposite: either this worker sees the new lease, or register() sees this
			// wake-up time and unparks it.
			this.wakeAt = next;
			long registered = this.earliestRegistered.get();
			if (registered != NONE && registered - next < 0) {
				next = registered;
				this.wakeAt = next;
			}
			long sleep = next - System.nanoTime();
			if (sleep > 0 && !this.closed) {
				LockSupport.parkNanos(this, sleep);
			}
		}
	}

	/**
	 * Renew the leases that are due and return when the next one will be.
	 */
	private long renewDueLeases() {
		this.earliestRegistered.set(NONE);
		long now = System.nanoTime();
		List<Lease> due = new ArrayList<>();
		long next = now + IDLE_NANOS;
		for (Lease lease : this.leases) {
			if (shouldStop(lease, now)) {
				this.leases.remove(lease);
			}
			else if (lease.isDue(now)) {
				due.add(lease);
			}
			else {
				next = earlier(next, lease.dueNanos);
			}
		}
		for (int from = 0; from < due.size(); from += MAX_BATCH) {
			renew(due.subList(from, Math.min(due.size(), from + MAX_BATCH)));
		}
		for (Lease lease : due) {
			next = earlier(next, lease.dueNanos);
		}
		return next;
	}

	private boolean shouldStop(Lease lease, long now) {
		if (lease.cancelled) {
			return true;
		}
		String reason = null;
		if (!lease.holder.isAlive()) {
			reason = "its holder thread '" + lease.holder.getName() + "' ended without releasing it";
		}
		else if (lease.holder.isInterrupted()) {
			reason = "its holder thread '" + lease.holder.getName() + "' was interrupted";
		}
		else if (now - lease.startNanos - this.maxHoldNanos > 0) {
			reason = "it was held longer than the maximum hold time of "
					+ TimeUnit.NANOSECONDS.toMillis(this.maxHoldNanos) + "ms";
		}
		if (reason == null) {
			return false;
		}
		logger.warn("Stopped renewing lock '" + lease.renewal.key() + "' because " + reason
				+ "; it expires within its ttl of " + lease.renewal.ttl().toMillis() + "ms");
		return true;
	}

	private void renew(List<Lease> due) {
		// A lease cancelled since the scan is left out: its lock is being released.
		List<Lease> batch = new ArrayList<>(due.size());
		List<Renewal> renewals = new ArrayList<>(due.size());
		for (Lease lease : due) {
			if (!lease.cancelled) {
				batch.add(lease);
				renewals.add(lease.renewal);
			}
		}
		if (batch.isEmpty()) {
			return;
		}
		long sentAt = System.nanoTime();
		boolean[] renewed;
		try {
			renewed = this.client.renewAll(renewals);
			Assert.state(renewed.length == batch.size(), "Expected one answer per renewal");
		}
		catch (RuntimeException ex) {
			logger.debug("Renewal of " + batch.size() + " lock(s) failed; retrying until their leases run out", ex);
			long now = System.nanoTime();
			batch.forEach((lease) -> retryOrLose(lease, now));
			return;
		}
		int lost = 0;
		for (int i = 0; i < renewed.length; i++) {
			Lease lease = batch.get(i);
			if (renewed[i]) {
				lease.renewed(sentAt);
			}
			else {
				lost++;
				lost(lease);
			}
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Renewed " + (batch.size() - lost) + " of " + batch.size() + " lease(s) in "
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt) + "ms");
		}
	}

	private void retryOrLose(Lease lease, long now) {
		if (now - lease.expiresNanos >= 0) {
			lost(lease);
		}
		else {
			lease.dueNanos = now + Math.max(MIN_RETRY_NANOS, lease.intervalNanos / 4);
		}
	}

	private void lost(Lease lease) {
		if (this.leases.remove(lease) && !lease.cancelled) {
			try {
				lease.onLost.run();
			}
			catch (RuntimeException ex) {
				logger.warn("Lost-lock callback for '" + lease.renewal.key() + "' failed", ex);
			}
		}
	}

	private static long earlier(long current, long candidate) {
		return (current == NONE || candidate - current < 0) ? candidate : current;
	}

	/**
	 * One lease being renewed, until cancelled.
	 */
	public final class Lease {

		private final Renewal renewal;

		private final Thread holder;

		private final Runnable onLost;

		private final long startNanos;

		private final long intervalNanos;

		// Renewed up to this much early when another lease is due, to share its batch.
		private final long slackNanos;

		private volatile long dueNanos;

		private volatile long expiresNanos;

		private volatile boolean cancelled;

		Lease(Renewal renewal, Thread holder, long startNanos, Runnable onLost) {
			this.renewal = renewal;
			this.holder = holder;
			this.startNanos = startNanos;
			this.onLost = onLost;
			this.intervalNanos = Math.max(1, renewal.ttl().toNanos() / 3);
			this.slackNanos = this.intervalNanos / 8;
			this.dueNanos = this.startNanos + this.intervalNanos;
			this.expiresNanos = this.startNanos + renewal.ttl().toNanos();
		}

		private boolean isDue(long now) {
			return this.dueNanos - this.slackNanos - now <= 0;
		}

		private void renewed(long sentAt) {
			this.expiresNanos = sentAt + this.renewal.ttl().toNanos();
			this.dueNanos = sentAt + this.intervalNanos;
		}

		/**
		 * Stop renewing this lease. Call it before releasing the lock, so that no new
		 * renewal starts after the release; one already on its way is harmless, as a
		 * renewal only extends a lock its owner still holds and never recreates it.
		 */
		public void cancel() {
			this.cancelled = true;
			LeaseRenewer.this.leases.remove(this);
		}

	}

}
