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
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

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

	private final LockClient client;

	private final long maxHoldNanos;

	private final Set<Lease> leases = ConcurrentHashMap.newKeySet();

	private final Object lifecycleMonitor = new Object();

	private volatile @Nullable Thread thread;

	private volatile long sleepingUntil = Long.MAX_VALUE;

	private volatile boolean closed;

	/**
	 * Create a renewer for the leases of the given store.
	 * @param client the lock store
	 * @param maxHold how long a lock is renewed at most
	 */
	public LeaseRenewer(LockClient client, Duration maxHold) {
		this.client = client;
		this.maxHoldNanos = maxHold.toNanos();
	}

	/**
	 * Start renewing a lease: first after a third of its ttl, then every third of it.
	 * @param key the resource name
	 * @param ownerToken the token of the acquisition
	 * @param ttl the lease time
	 * @param onLost called once, on the renewal thread, when the lock is found lost
	 * @return the lease, to cancel before the lock is released
	 */
	public Lease register(String key, String ownerToken, Duration ttl, Runnable onLost) {
		Lease lease = new Lease(new Renewal(key, ownerToken, ttl), Thread.currentThread(), onLost);
		this.leases.add(lease);
		Thread current = this.thread;
		if (current == null) {
			start();
		}
		else if (lease.dueNanos - this.sleepingUntil < 0) {
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
	 * Stop the renewal thread. Leases still registered are no longer renewed.
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
			long now = System.nanoTime();
			List<Lease> due = new ArrayList<>();
			long next = now + TimeUnit.SECONDS.toNanos(60);
			for (Lease lease : this.leases) {
				if (shouldStop(lease, now)) {
					this.leases.remove(lease);
				}
				else if (lease.dueNanos - lease.slackNanos - now <= 0) {
					due.add(lease);
				}
				else if (lease.dueNanos - lease.slackNanos - next < 0) {
					next = lease.dueNanos - lease.slackNanos;
				}
			}
			for (int from = 0; from < due.size(); from += MAX_BATCH) {
				renew(due.subList(from, Math.min(due.size(), from + MAX_BATCH)));
			}
			for (Lease lease : due) {
				if (lease.dueNanos - lease.slackNanos - next < 0) {
					next = lease.dueNanos - lease.slackNanos;
				}
			}
			this.sleepingUntil = next;
			long sleep = next - System.nanoTime();
			if (sleep > 0 && !this.closed) {
				LockSupport.parkNanos(this, sleep);
			}
			this.sleepingUntil = Long.MAX_VALUE;
		}
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
					+ Duration.ofNanos(this.maxHoldNanos).toMinutes() + " minutes";
		}
		if (reason == null) {
			return false;
		}
		logger.warn("Stopped renewing lock '" + lease.renewal.key() + "' because " + reason
				+ "; it expires within its ttl of " + lease.renewal.ttl().toMillis() + "ms");
		return true;
	}

	private void renew(List<Lease> batch) {
		List<Renewal> renewals = new ArrayList<>(batch.size());
		batch.forEach((lease) -> renewals.add(lease.renewal));
		long sentAt = System.nanoTime();
		boolean[] renewed;
		try {
			renewed = this.client.renewAll(renewals);
		}
		catch (RuntimeException ex) {
			logger.debug("Renewal of " + batch.size() + " lock(s) failed; retrying until their leases run out", ex);
			long now = System.nanoTime();
			batch.forEach((lease) -> retryOrLose(lease, now));
			return;
		}
		for (int i = 0; i < renewed.length; i++) {
			Lease lease = batch.get(i);
			if (renewed[i]) {
				lease.renewed(sentAt);
			}
			else {
				lost(lease);
			}
		}
	}

	private void retryOrLose(Lease lease, long now) {
		if (now - lease.expiresNanos >= 0) {
			lost(lease);
		}
		else {
			lease.dueNanos = now + Math.max(TimeUnit.MILLISECONDS.toNanos(10), lease.intervalNanos / 4);
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

	/**
	 * One lease being renewed, until cancelled.
	 */
	public final class Lease {

		private final Renewal renewal;

		private final Thread holder;

		private final Runnable onLost;

		private final long startNanos = System.nanoTime();

		private final long intervalNanos;

		// Renewing a little early lets leases due at about the same time share a batch.
		private final long slackNanos;

		private volatile long dueNanos;

		private volatile long expiresNanos;

		private volatile boolean cancelled;

		Lease(Renewal renewal, Thread holder, Runnable onLost) {
			this.renewal = renewal;
			this.holder = holder;
			this.onLost = onLost;
			this.intervalNanos = Math.max(1, renewal.ttl().toNanos() / 3);
			this.slackNanos = this.intervalNanos / 8;
			this.dueNanos = this.startNanos + this.intervalNanos;
			this.expiresNanos = this.startNanos + renewal.ttl().toNanos();
		}

		private void renewed(long sentAt) {
			this.expiresNanos = sentAt + this.renewal.ttl().toNanos();
			this.dueNanos = sentAt + this.intervalNanos;
		}

		/**
		 * Stop renewing this lease. Call it before releasing the lock, so that no renewal
		 * can land after the release.
		 */
		public void cancel() {
			this.cancelled = true;
			LeaseRenewer.this.leases.remove(this);
		}

	}

}
