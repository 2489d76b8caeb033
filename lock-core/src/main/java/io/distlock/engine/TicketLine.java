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

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The line of the tickets of one {@link LocalQueue}: the active ticket, the tickets
 * waiting behind it in arrival order, the streak of hand-overs, and the lease of a holder
 * that is not renewed. Moves the tickets from state to state; the queue guards every call
 * with its lock and does the waiting.
 */
final class TicketLine {

	// How long the next waiter of this application stays back after the lock was let
	// go for others, so that a waiter elsewhere, woken by the release, gets there first.
	static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private final ArrayDeque<QueueTicket> waiting = new ArrayDeque<>();

	private @Nullable QueueTicket active;

	private long streakStart;

	private boolean streaking;

	int waiting() {
		return this.waiting.size();
	}

	boolean isFirstWaiting(QueueTicket ticket) {
		return this.waiting.peekFirst() == ticket;
	}

	/**
	 * Make the ticket the active one when there is none, or line it up behind it.
	 */
	void enter(QueueTicket ticket) {
		if (this.active == null) {
			this.active = ticket;
			ticket.state = QueueTicket.State.CONTENDING;
		}
		else {
			this.waiting.add(ticket);
		}
	}

	/**
	 * The waiting ticket's deadline passed: it leaves the line.
	 */
	void timedOut(QueueTicket ticket) {
		this.waiting.remove(ticket);
		ticket.state = QueueTicket.State.DONE;
		watchLease();
	}

	/**
	 * The ticket was interrupted while waiting, or while contending: it leaves the line,
	 * and the next ticket contends in its place.
	 */
	void interrupted(QueueTicket ticket) {
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
	}

	/**
	 * Return how long the lease of the holding ticket has left when it is not renewed, or
	 * {@link Long#MAX_VALUE} while no such lease runs.
	 */
	long leaseLeft(long now) {
		QueueTicket holder = this.active;
		if (holder == null || holder.state != QueueTicket.State.HOLDING || holder.renewed()) {
			return Long.MAX_VALUE;
		}
		return holder.leaseEndNanos - now;
	}

	/**
	 * The lease of the holding ticket, not renewed, ran out while its code runs on: the
	 * first waiting ticket contends in the store, as it would have without the queue. The
	 * holder's release later hands nothing over and lets nobody else in.
	 */
	void leaseEnded() {
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

	/**
	 * See {@link LocalQueue#contended}.
	 */
	void contended(QueueTicket ticket, boolean acquired, long sentAtNanos) {
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

	/**
	 * See {@link LocalQueue#beginRelease}.
	 */
	@Nullable QueueTicket beginRelease(QueueTicket holder) {
		if (holder.state != QueueTicket.State.HOLDING) {
			return null;
		}
		holder.state = QueueTicket.State.RELEASING;
		QueueTicket next = this.waiting.peekFirst();
		long now = System.nanoTime();
		if (next == null || (this.streaking && now - this.streakStart > LocalQueue.MAX_STREAK_NANOS)) {
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

	/**
	 * See {@link LocalQueue#handedOver}.
	 */
	void handedOver(QueueTicket holder, QueueTicket next, long fencingToken, long sentAtNanos) {
		next.fencingToken = fencingToken;
		next.sentAtNanos = sentAtNanos;
		next.leaseEndNanos = sentAtNanos + next.ttl().toNanos();
		next.state = QueueTicket.State.HOLDING;
		this.active = next;
		holder.state = QueueTicket.State.DONE;
		next.turn.signal();
		watchLease();
	}

	/**
	 * See {@link LocalQueue#notHandedOver}.
	 */
	void notHandedOver(QueueTicket next) {
		if (next.state == QueueTicket.State.HANDING) {
			this.waiting.addFirst(next);
			next.state = QueueTicket.State.WAITING;
			next.turn.signal();
		}
	}

	/**
	 * See {@link LocalQueue#released}.
	 */
	void released(QueueTicket holder, boolean pause) {
		boolean wasActive = holder.state == QueueTicket.State.RELEASING;
		holder.state = QueueTicket.State.DONE;
		if (wasActive) {
			pause = pause || (this.streaking && this.waiting.peekFirst() != null);
			this.streaking = false;
			promoteNext(holder, pause);
		}
	}

	/**
	 * See {@link LocalQueue#lost}.
	 */
	void lost(QueueTicket holder) {
		if (holder.state == QueueTicket.State.HOLDING) {
			holder.state = QueueTicket.State.LOST;
			this.streaking = false;
			promoteNext(holder, false);
		}
	}

	/**
	 * Make the first waiting ticket the active one, after the given one, if that was
	 * active: it contends in the store, after a pause when the lock was let go for
	 * waiters elsewhere.
	 */
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

}
