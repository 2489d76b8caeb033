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

import java.util.concurrent.locks.ReentrantLock;

/**
 * Makes the tickets of one {@link LocalQueue} wait for their turn: until a ticket may
 * contend in the store, the lock was handed to it, or its deadline passed. Wakes on the
 * ticket's own condition, and lets the first waiting ticket take over the lock of a
 * holder whose lease, not renewed, ran out.
 */
final class TicketWait {

	private final ReentrantLock lock;

	private final TicketLine line;

	TicketWait(ReentrantLock lock, TicketLine line) {
		this.lock = lock;
		this.line = line;
	}

	/**
	 * Wait for the ticket's turn; see {@link LocalQueue#await}.
	 * @return the turn
	 * @throws InterruptedException if interrupted while waiting (the ticket is done)
	 */
	LocalQueue.Turn await(QueueTicket ticket, long deadline) throws InterruptedException {
		this.lock.lock();
		try {
			while (true) {
				long now = System.nanoTime();
				long left = deadline - now;
				switch (ticket.state) {
					case HOLDING:
						return LocalQueue.Turn.HANDED_OVER;
					case CONTENDING:
						long pause = ticket.pauseUntil - now;
						if (pause <= 0 || left <= 0) {
							return LocalQueue.Turn.CONTEND;
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
							this.line.timedOut(ticket);
							return LocalQueue.Turn.TIMED_OUT;
						}
						long leaseLeft = this.line.leaseLeft(now);
						if (leaseLeft <= 0 && this.line.isFirstWaiting(ticket)) {
							// The holder's lease ran out: the lock goes to whoever asks
							// in the store, this ticket first among the threads here.
							this.line.leaseEnded();
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
			this.line.interrupted(ticket);
			throw ex;
		}
	}

}
