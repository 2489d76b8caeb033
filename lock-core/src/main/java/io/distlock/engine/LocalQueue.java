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
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The threads of this application that wait for the exclusive, non-fair lock of one key:
 * one of them contends for it in the store, the others wait here in arrival order, and a
 * release hands the lock to the first of them when the store agrees (see
 * {@link LocalQueues}).
 *
 * <p>
 * Each thread holds a {@link QueueTicket}; exactly one ticket at a time is
 * <em>active</em>: contending in the store, holding the lock, or handing it over. The
 * tickets behind it wait for their turn or for a lock handed to them, up to their
 * deadline.
 */
final class LocalQueue {

	// How long hand-overs may follow each other before a release lets the lock go, so
	// that an application whose waiter has not announced itself yet gets a chance.
	static final long MAX_STREAK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	// How long the next waiter of this application stays back after the lock was let
	// go for others, so that a waiter elsewhere, woken by the release, gets there first.
	static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private final String resource;

	private final ReentrantLock lock = new ReentrantLock();

	private final ArrayDeque<QueueTicket> waiting = new ArrayDeque<>();

	private @Nullable QueueTicket active;

	private long streakStart;

	private boolean streaking;

	// Tickets entered and not yet done; read and written in LocalQueues' map compute
	// only.
	int tickets;

	LocalQueue(String resource) {
		this.resource = resource;
	}

	String resource() {
		return this.resource;
	}

	/**
	 * Return how many tickets wait behind the active one.
	 */
	int waiting() {
		this.lock.lock();
		try {
			return this.waiting.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Take a ticket: active at once when no thread of this application contends for or
	 * holds the lock, waiting otherwise.
	 */
	QueueTicket enter(String ownerToken, Duration ttl, boolean renewed) {
		QueueTicket ticket = new QueueTicket(this, this.lock, ownerToken, ttl, renewed);
		this.lock.lock();
		try {
			if (this.active == null) {
				this.active = ticket;
				ticket.state = QueueTicket.State.CONTENDING;
			}
			else {
				this.waiting.add(ticket);
			}
			return ticket;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Wait until the ticket may contend in the store, the lock was handed to it, or its
	 * deadline passed. A ticket the lock is being handed to waits for the outcome (one
	 * store call), also past its deadline, since it was chosen in time; one interrupted
	 * meanwhile is {@link QueueTicket#abandoned() abandoned}, and its caller gives the
	 * lock back.
	 * @return the turn
	 * @throws InterruptedException if interrupted while waiting (the ticket is done)
	 */
	Turn await(QueueTicket ticket, long deadline) throws InterruptedException {
		this.lock.lock();
		try {
			while (true) {
				long now = System.nanoTime();
				long left = deadline - now;
				switch (ticket.state) {
					case HOLDING:
						return Turn.HANDED_OVER;
					case CONTENDING:
						long pause = ticket.pauseUntil - now;
						if (pause <= 0 || left <= 0) {
							return Turn.CONTEND;
						}
						awaitNanos(ticket, Math.min(pause, left));
						break;
					case HANDING:
						// Interrupted before or during the wait (which keeps the flag
						// set).
						boolean interrupted = Thread.interrupted();
						ticket.turn.awaitUninterruptibly();
						interrupted |= Thread.interrupted();
						if (interrupted) {
							ticket.abandoned = true;
							Thread.currentThread().interrupt();
						}
						break;
					case WAITING:
						if (left <= 0) {
							this.waiting.remove(ticket);
							ticket.state = QueueTicket.State.DONE;
							watchLease();
							return Turn.TIMED_OUT;
						}
						long leaseLeft = leaseLeft(now);
						if (leaseLeft <= 0 && this.waiting.peekFirst() == ticket) {
							// The holder's lease ran out: the lock goes to whoever asks
							// in the store, this ticket first among the threads here.
							leaseEnded();
							break;
						}
						long wait = (leaseLeft > 0) ? Math.min(left, leaseLeft) : left;
						ticket.wakeAtNanos = now + wait;
						awaitNanos(ticket, wait);
						break;
					default:
						throw new IllegalStateException("QueueTicket " + ticket.state + " cannot wait");
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return how long the lease of the holding ticket has left when it is not renewed, or
	 * {@link Long#MAX_VALUE} while no such lease runs.
	 */
	private long leaseLeft(long now) {
		QueueTicket holder = this.active;
		if (holder == null || holder.state != QueueTicket.State.HOLDING || holder.renewed()) {
			return Long.MAX_VALUE;
		}
		return holder.leaseEndNanos - now;
	}

	/**
	 * The lease of the holding ticket, not renewed, ran out while its code runs on: the
	 * first waiting ticket contends in the store, as it would have without this queue.
	 * The holder's release later hands nothing over and lets nobody else in.
	 */
	private void leaseEnded() {
		QueueTicket holder = this.active;
		if (holder != null) {
			holder.state = QueueTicket.State.LOST;
			this.streaking = false;
			promoteNext(holder, false);
		}
	}

	/**
	 * Wake the first waiting ticket when the lease of the holder, not renewed, runs out
	 * before that ticket would wake anyway.
	 */
	private void watchLease() {
		QueueTicket first = this.waiting.peekFirst();
		long now = System.nanoTime();
		long leaseLeft = leaseLeft(now);
		if (first != null && leaseLeft != Long.MAX_VALUE && now + leaseLeft - first.wakeAtNanos < 0) {
			first.turn.signal();
		}
	}

	private void awaitNanos(QueueTicket ticket, long nanos) throws InterruptedException {
		try {
			ticket.turn.awaitNanos(nanos);
		}
		catch (InterruptedException ex) {
			if (ticket.state == QueueTicket.State.HANDING || ticket.state == QueueTicket.State.HOLDING) {
				// The lock is (being) handed to it: the caller gives it back.
				ticket.abandoned = true;
				Thread.currentThread().interrupt();
				return;
			}
			boolean waited = ticket.state == QueueTicket.State.WAITING;
			if (waited) {
				this.waiting.remove(ticket);
			}
			else {
				promoteNext(ticket, false);
			}
			ticket.state = QueueTicket.State.DONE;
			if (waited) {
				watchLease();
			}
			throw ex;
		}
	}

	/**
	 * Record the outcome of the active ticket's attempt in the store: it holds the lock,
	 * or it is done and the next ticket contends.
	 */
	void contended(QueueTicket ticket, boolean acquired, long sentAtNanos) {
		this.lock.lock();
		try {
			if (acquired) {
				ticket.state = QueueTicket.State.HOLDING;
				ticket.leaseEndNanos = sentAtNanos + ticket.ttl().toNanos();
				this.streaking = false;
				watchLease();
			}
			else {
				promoteNext(ticket, false);
				ticket.state = QueueTicket.State.DONE;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Start the release of the lock the ticket holds: return the waiting ticket to hand
	 * it to, or {@code null} to let it go (nobody waits here, the streak of hand-overs is
	 * over, or the lock was lost already).
	 */
	@Nullable QueueTicket beginRelease(QueueTicket holder) {
		this.lock.lock();
		try {
			if (holder.state != QueueTicket.State.HOLDING) {
				return null;
			}
			holder.state = QueueTicket.State.RELEASING;
			QueueTicket next = this.waiting.peekFirst();
			long now = System.nanoTime();
			if (next == null || (this.streaking && now - this.streakStart > MAX_STREAK_NANOS)) {
				return null;
			}
			this.waiting.pollFirst();
			next.state = QueueTicket.State.HANDING;
			if (!this.streaking) {
				this.streaking = true;
				this.streakStart = now;
			}
			return next;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * End a release that handed the lock to the given ticket.
	 */
	void handedOver(QueueTicket holder, QueueTicket next, long fencingToken, long sentAtNanos) {
		this.lock.lock();
		try {
			next.fencingToken = fencingToken;
			next.sentAtNanos = sentAtNanos;
			next.leaseEndNanos = sentAtNanos + next.ttl().toNanos();
			next.state = QueueTicket.State.HOLDING;
			this.active = next;
			holder.state = QueueTicket.State.DONE;
			next.turn.signal();
			watchLease();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The hand-over to the ticket did not happen (the store declined it, it failed, or
	 * the holder no longer held the lock): the ticket waits again, first in line, within
	 * its own deadline. It does not wait for the holder to give the lock back in the
	 * store, which can take another call or two, on top of the hand-over it waited for.
	 */
	void notHandedOver(QueueTicket next) {
		this.lock.lock();
		try {
			if (next.state == QueueTicket.State.HANDING) {
				this.waiting.addFirst(next);
				next.state = QueueTicket.State.WAITING;
				next.turn.signal();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * End a release that let the lock go (or found it lost): the first waiting ticket
	 * contends in the store next, after a pause when the lock was let go for waiters
	 * elsewhere.
	 */
	void released(QueueTicket holder, boolean pause) {
		this.lock.lock();
		try {
			boolean wasActive = holder.state == QueueTicket.State.RELEASING;
			holder.state = QueueTicket.State.DONE;
			if (wasActive) {
				pause = pause || (this.streaking && this.waiting.peekFirst() != null);
				this.streaking = false;
				promoteNext(holder, pause);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The lock of the holding ticket was lost: the next ticket contends in the store, as
	 * it would have without this queue.
	 */
	void lost(QueueTicket holder) {
		this.lock.lock();
		try {
			if (holder.state == QueueTicket.State.HOLDING) {
				holder.state = QueueTicket.State.LOST;
				this.streaking = false;
				promoteNext(holder, false);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void promoteNext(QueueTicket previous, boolean pause) {
		if (this.active != previous) {
			return;
		}
		QueueTicket next = this.waiting.pollFirst();
		this.active = next;
		if (next != null) {
			next.state = QueueTicket.State.CONTENDING;
			next.pauseUntil = pause ? System.nanoTime() + PAUSE_NANOS : 0;
			next.turn.signal();
		}
	}

	/**
	 * What a waiting ticket may do now.
	 */
	enum Turn {

		/** Contend for the lock in the store. */
		CONTEND,

		/** The lock was handed to it. */
		HANDED_OVER,

		/** Its deadline passed while waiting here. */
		TIMED_OUT

	}

}
