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
 * deadline. The queue guards its {@link TicketLine} with its lock; a {@link TicketWait}
 * makes the tickets wait for their turn.
 */
final class LocalQueue {

	// How long hand-overs may follow each other before a release lets the lock go, so
	// that an application whose waiter has not announced itself yet gets a chance.
	static final long MAX_STREAK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final String resource;

	private final ReentrantLock lock = new ReentrantLock();

	private final TicketLine line = new TicketLine();

	private final TicketWait wait = new TicketWait(this.lock, this.line);

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
			return this.line.waiting();
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
			this.line.enter(ticket);
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
		return this.wait.await(ticket, deadline);
	}

	/**
	 * Record the outcome of the active ticket's attempt in the store: it holds the lock,
	 * or it is done and the next ticket contends.
	 */
	void contended(QueueTicket ticket, boolean acquired, long sentAtNanos) {
		this.lock.lock();
		try {
			this.line.contended(ticket, acquired, sentAtNanos);
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
			return this.line.beginRelease(holder);
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
			this.line.handedOver(holder, next, fencingToken, sentAtNanos);
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
			this.line.notHandedOver(next);
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
			this.line.released(holder, pause);
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
			this.line.lost(holder);
		}
		finally {
			this.lock.unlock();
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
