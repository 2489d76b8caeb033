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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.util.Assert;

/**
 * A {@link TaskScheduler} on a clock that only moves when told to: {@link #advance} runs,
 * on the calling thread and in order, the one-shot tasks that became due, with the clock
 * set to each task's instant. It can be told to {@link #reject reject} tasks.
 */
final class ManualTaskScheduler implements TaskScheduler {

	private final Clock clock = new ManualClock();

	private final PriorityQueue<ManualFuture> tasks = new PriorityQueue<>(
			Comparator.comparing((ManualFuture task) -> task.at).thenComparingLong((task) -> task.sequence));

	// Held while advancing, so that one advance runs at a time.
	private final Object advancing = new Object();

	private volatile Instant now;

	private long sequence;

	private boolean rejecting;

	ManualTaskScheduler(Instant start) {
		this.now = start;
	}

	@Override
	public Clock getClock() {
		return this.clock;
	}

	Instant now() {
		return this.now;
	}

	/**
	 * Move the clock forward, running every task due by then.
	 * @param duration how far to move it
	 */
	void advance(Duration duration) {
		synchronized (this.advancing) {
			Instant until = this.now.plus(duration);
			ManualFuture next;
			while ((next = pollDue(until)) != null) {
				if (next.isCancelled()) {
					continue;
				}
				if (next.at.isAfter(this.now)) {
					this.now = next.at;
				}
				// Run without holding the queue, as a real scheduler does: the task, or
				// another thread meanwhile, may schedule more.
				next.run();
			}
			this.now = until;
		}
	}

	private synchronized @Nullable ManualFuture pollDue(Instant until) {
		ManualFuture next = this.tasks.peek();
		return (next != null && !next.at.isAfter(until)) ? this.tasks.poll() : null;
	}

	/**
	 * Return how many tasks wait to run, cancelled ones left out.
	 * @return the number of pending tasks
	 */
	synchronized long pendingTasks() {
		return this.tasks.stream().filter((task) -> !task.isCancelled()).count();
	}

	/**
	 * Reject tasks from now on, as a scheduler that is shutting down or full does, or
	 * accept them again.
	 * @param rejecting whether to reject tasks
	 */
	synchronized void reject(boolean rejecting) {
		this.rejecting = rejecting;
	}

	@Override
	public synchronized ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
		if (this.rejecting) {
			throw new TaskRejectedException("Rejected by the test");
		}
		ManualFuture future = new ManualFuture(task, startTime, this.sequence++);
		this.tasks.add(future);
		return future;
	}

	@Override
	public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
		throw new UnsupportedOperationException();
	}

	@Override
	public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
		throw new UnsupportedOperationException();
	}

	@Override
	public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
		throw new UnsupportedOperationException();
	}

	@Override
	public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
		throw new UnsupportedOperationException();
	}

	@Override
	public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
		throw new UnsupportedOperationException();
	}

	/**
	 * A clock reading the scheduler's current instant.
	 */
	private final class ManualClock extends Clock {

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Instant instant() {
			return ManualTaskScheduler.this.now;
		}

	}

	/**
	 * One scheduled task; it never blocks, so {@link #get()} fails until the task ran.
	 */
	private final class ManualFuture implements ScheduledFuture<Object> {

		private final Runnable task;

		private final Instant at;

		private final long sequence;

		private volatile boolean cancelled;

		private volatile boolean done;

		ManualFuture(Runnable task, Instant at, long sequence) {
			this.task = task;
			this.at = at;
			this.sequence = sequence;
		}

		void run() {
			this.done = true;
			this.task.run();
		}

		@Override
		public long getDelay(TimeUnit unit) {
			return unit.convert(Duration.between(ManualTaskScheduler.this.now, this.at));
		}

		@Override
		public int compareTo(Delayed other) {
			return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			if (this.done) {
				return false;
			}
			this.cancelled = true;
			return true;
		}

		@Override
		public boolean isCancelled() {
			return this.cancelled;
		}

		@Override
		public boolean isDone() {
			return this.done || this.cancelled;
		}

		@Override
		public @Nullable Object get() {
			// Waiting here would wait forever: only advance() runs tasks.
			Assert.state(this.done, "Task has not run yet");
			return null;
		}

		@Override
		public @Nullable Object get(long timeout, TimeUnit unit) {
			return get();
		}

	}

}
