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
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One thread's place in a {@link LocalQueue}, for one acquisition: where it is in the
 * queue's state machine, and the lock handed to it, if one was.
 */
final class QueueTicket {

	private final LocalQueue queue;

	private final ReentrantLock lock;

	private final String ownerToken;

	private final Duration ttl;

	private final boolean renewed;

	// Each ticket is woken on its own: a change of turn concerns one ticket, and
	// waking every waiter of a busy key for it cost each hand-over a wake-up per
	// waiting thread.
	final Condition turn;

	// Guarded by the queue's lock, and changed by the queue only.
	State state = State.WAITING;

	long pauseUntil;

	long fencingToken;

	long sentAtNanos;

	// When the lease of a lock that is not renewed runs out (nanoTime), set once the
	// ticket holds it; a waiter of this application takes the lock over from then on.
	long leaseEndNanos;

	// When the waiting ticket wakes next at the latest (nanoTime).
	long wakeAtNanos;

	boolean abandoned;

	QueueTicket(LocalQueue queue, ReentrantLock lock, String ownerToken, Duration ttl, boolean renewed) {
		this.queue = queue;
		this.lock = lock;
		this.ownerToken = ownerToken;
		this.ttl = ttl;
		this.renewed = renewed;
		this.turn = lock.newCondition();
	}

	LocalQueue queue() {
		return this.queue;
	}

	String ownerToken() {
		return this.ownerToken;
	}

	Duration ttl() {
		return this.ttl;
	}

	/**
	 * Tell whether the lock of this ticket is renewed while held; one that is not ends
	 * with its lease, whether its holder released it or not.
	 */
	boolean renewed() {
		return this.renewed;
	}

	long fencingToken() {
		this.lock.lock();
		try {
			return this.fencingToken;
		}
		finally {
			this.lock.unlock();
		}
	}

	long sentAtNanos() {
		this.lock.lock();
		try {
			return this.sentAtNanos;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Tell whether the lock was handed to this ticket after its caller gave up (deadline
	 * passed or interrupted): the caller must give it back.
	 */
	boolean abandoned() {
		this.lock.lock();
		try {
			return this.abandoned;
		}
		finally {
			this.lock.unlock();
		}
	}

	enum State {

		WAITING, CONTENDING, HOLDING, RELEASING, HANDING, LOST, DONE

	}

}
