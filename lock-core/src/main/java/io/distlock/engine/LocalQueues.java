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

package io.distlock.engine;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.store.AcquireResult;
import io.distlock.store.HandoverLockClient;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * Local queueing of one application's threads per key: for exclusive, non-fair,
 * auto-renewed locks on a {@link HandoverLockClient}, only the first thread waiting for a
 * key contends for it in the store; the others wait in a {@link LocalQueue}, and a
 * release hands the lock straight to the next of them, with a new fencing token, unless
 * the store declines because a caller elsewhere waits. A declined hand-over, or a streak
 * longer than {@link LocalQueue#MAX_STREAK_NANOS}, lets the lock go as usual: waiters of
 * other applications are not starved. Other kinds, fair locks and try-once attempts go to
 * the store directly.
 */
final class LocalQueues {

	private static final Log logger = LogFactory.getLog(LocalQueues.class);

	private final ConcurrentHashMap<String, LocalQueue> queues = new ConcurrentHashMap<>();

	private final @Nullable HandoverLockClient client;

	private final LockWaiter waiter;

	LocalQueues(LockClient client, LockWaiter waiter) {
		this.client = (client instanceof HandoverLockClient handover) ? handover : null;
		this.waiter = waiter;
	}

	/**
	 * Tell whether the request queues locally: an exclusive, non-fair lock without
	 * minimum hold time, waited for, on a store that can hand locks over. A lock kept for
	 * its minimum hold time is not released when its code ends. A lock that is not
	 * renewed queues too, and goes to whoever asks once its lease ran out, the first
	 * thread of this queue among them (see {@link LocalQueue#await}).
	 */
	boolean applies(LockRequest request, LockKind kind) {
		return this.client != null && kind.mode() == LockMode.EXCLUSIVE && !kind.isPermit() && !request.fair()
				&& !request.waitTime().isZero() && request.minHold().isZero();
	}

	/**
	 * Enter the queue of the resource.
	 */
	QueueTicket enter(String resource, String ownerToken, Duration ttl, boolean renewed) {
		QueueTicket[] ticket = new QueueTicket[1];
		this.queues.compute(resource, (key, queue) -> {
			LocalQueue entered = (queue != null) ? queue : new LocalQueue(resource);
			entered.tickets++;
			ticket[0] = entered.enter(ownerToken, ttl, renewed);
			return entered;
		});
		return ticket[0];
	}

	/**
	 * Wait for the ticket's turn and take the lock: handed over by a thread of this
	 * application, or taken in the store with what is left of the wait time.
	 * @return the last attempt, {@link AcquireResult.Acquired} when the ticket holds the
	 * lock, which it then gives back through {@link #release}
	 * @throws InterruptedException if interrupted; no lock is left behind
	 */
	Attempt acquire(QueueTicket ticket, StoreAcquirer acquirer, LockKind kind, long deadline)
			throws InterruptedException {
		LocalQueue queue = ticket.queue();
		boolean holding = false;
		try {
			LocalQueue.Turn turn = queue.await(ticket, deadline);
			if (turn == LocalQueue.Turn.TIMED_OUT) {
				return new Attempt(new AcquireResult.Busy(null), System.nanoTime());
			}
			if (turn == LocalQueue.Turn.HANDED_OVER) {
				holding = true;
				if (ticket.abandoned()) {
					// Interrupted while the lock was handed to it: pass it on. The Redis
					// client refuses calls while the interrupt flag is set.
					Thread.interrupted();
					release(ticket);
					throw new InterruptedException();
				}
				return new Attempt(new AcquireResult.Acquired(ticket.fencingToken()), ticket.sentAtNanos());
			}
			Attempt attempt;
			try {
				attempt = acquirer.acquire(queue.resource(), ticket.ownerToken(), ticket.ttl(),
						Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), false, kind);
			}
			catch (InterruptedException | RuntimeException ex) {
				queue.contended(ticket, false, 0);
				throw ex;
			}
			holding = attempt.result() instanceof AcquireResult.Acquired;
			queue.contended(ticket, holding, attempt.sentAtNanos());
			return attempt;
		}
		finally {
			if (!holding) {
				done(ticket);
			}
		}
	}

	/**
	 * Release the lock the ticket holds: hand it to the next waiting thread of this
	 * application when the store agrees, or else release it and let the next thread
	 * contend in the store.
	 * @return {@code true} if the lock was handed over or released, {@code false} if the
	 * ticket's owner no longer held it
	 */
	boolean release(QueueTicket holder) {
		HandoverLockClient client = this.client;
		Assert.state(client != null, "Local queueing needs a HandoverLockClient (see applies)");
		LocalQueue queue = holder.queue();
		String resource = queue.resource();
		try {
			QueueTicket next = queue.beginRelease(holder);
			boolean pause = false;
			if (next != null) {
				long sentAt = System.nanoTime();
				HandoverLockClient.@Nullable Handover outcome = null;
				@Nullable RuntimeException failure = null;
				try {
					outcome = client.handOver(resource, holder.ownerToken(), next.ownerToken(), next.ttl());
				}
				catch (RuntimeException ex) {
					failure = ex;
				}
				if (outcome instanceof HandoverLockClient.HandedOver handedOver) {
					queue.handedOver(holder, next, handedOver.fencingToken(), sentAt);
					return true;
				}
				// Before any further store call: the next thread's wait time runs again.
				queue.notHandedOver(next);
				if (failure != null) {
					// Unknown if it took place: give back what the next owner may hold,
					// release as usual (retried in slot migrations); the next contends.
					giveBack(client, resource, next.ownerToken(), failure);
				}
				if (outcome instanceof HandoverLockClient.NotHeld) {
					queue.released(holder, false);
					return false;
				}
				pause = outcome instanceof HandoverLockClient.Declined;
			}
			boolean released;
			try {
				released = client.release(resource, holder.ownerToken());
			}
			finally {
				queue.released(holder, pause);
			}
			if (released) {
				// Threads of this application that wait for the key in the store.
				this.waiter.signal(resource);
			}
			return released;
		}
		finally {
			done(holder);
		}
	}

	/**
	 * Give up the lock of a ticket that was handed over or taken, but whose handle could
	 * not be made (its lease could not be renewed; the lock was given back): the next
	 * thread contends in the store.
	 */
	void dropped(QueueTicket holder) {
		holder.queue().lost(holder);
		done(holder);
	}

	/**
	 * Tell the queue that the lock of the holding ticket was lost.
	 */
	void lost(QueueTicket holder) {
		holder.queue().lost(holder);
	}

	/**
	 * Return how many threads wait in the local queue of the resource, behind the one
	 * that contends for or holds its lock.
	 */
	int waiting(String resource) {
		LocalQueue queue = this.queues.get(resource);
		return (queue != null) ? queue.waiting() : 0;
	}

	/**
	 * Return how many keys have a local queue now.
	 */
	int size() {
		return this.queues.size();
	}

	private static void giveBack(HandoverLockClient client, String resource, String ownerToken,
			RuntimeException failure) {
		try {
			client.release(resource, ownerToken);
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Could not hand lock '" + resource + "' over; releasing it as usual", failure);
		}
	}

	private void done(QueueTicket ticket) {
		LocalQueue done = ticket.queue();
		this.queues.computeIfPresent(done.resource(), (key, queue) -> {
			if (queue != done) {
				return queue;
			}
			queue.tickets--;
			return (queue.tickets == 0) ? null : queue;
		});
	}

}
