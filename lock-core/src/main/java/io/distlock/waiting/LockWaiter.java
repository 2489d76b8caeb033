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

package io.distlock.waiting;

import java.time.Duration;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Parks threads waiting for a busy lock until a release notification for its key arrives,
 * a bounded backoff passes, or their deadline comes.
 *
 * <p>
 * A notification wakes one waiter of this application per key, so a release does not send
 * every local waiter to Redis at once; a waiter that gives up with a wake-up it did not
 * use passes it on. A fair waiter registers under its own owner token instead of the key,
 * since the store names the waiter whose turn it is. Notifications may be lost (or never
 * sent, without a notifier), so every wait is also bounded by the backoff: waiting never
 * depends on them for progress. Uses {@link LockSupport} parking, so it is safe on
 * virtual threads.
 */
public final class LockWaiter {

	private static final long DEFAULT_INITIAL_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private final long initialBackoffNanos;

	private final long maxBackoffNanos;

	private final KeyedQueues<Waiter> waiters = new KeyedQueues<>();

	private final KeyedQueues<Waiter> byResource = new KeyedQueues<>();

	private volatile @Nullable Consumer<String> interest;

	/**
	 * Create a waiter whose fallback backoff starts at 10ms and doubles up to the given
	 * bound.
	 * @param maxBackoff the longest a waiter sleeps between two attempts without a
	 * notification
	 */
	public LockWaiter(Duration maxBackoff) {
		this(Duration.ofNanos(DEFAULT_INITIAL_BACKOFF_NANOS), maxBackoff);
	}

	/**
	 * Create a waiter whose fallback backoff starts at the given time and doubles up to
	 * the given bound.
	 * @param initialBackoff how long a waiter sleeps after its first failed attempt
	 * without a notification; at most {@code maxBackoff}
	 * @param maxBackoff the longest a waiter sleeps between two attempts without a
	 * notification
	 */
	public LockWaiter(Duration initialBackoff, Duration maxBackoff) {
		Assert.isTrue(initialBackoff != null && initialBackoff.toNanos() > 0, "'initialBackoff' must be positive");
		Assert.isTrue(maxBackoff != null && !maxBackoff.isNegative(), "'maxBackoff' must not be negative");
		this.initialBackoffNanos = initialBackoff.toNanos();
		this.maxBackoffNanos = Math.max(this.initialBackoffNanos, maxBackoff.toNanos());
	}

	/**
	 * Return the longest a waiter sleeps between two attempts without a notification.
	 * @return the maximum backoff
	 */
	public Duration getMaxBackoff() {
		return Duration.ofNanos(this.maxBackoffNanos);
	}

	/**
	 * Tell the given interest whenever a lock resource gets its first parked waiter and
	 * when its last one leaves, such as a notifier that subscribes to each lock's release
	 * channel only while someone here waits for it. A waiter counts from its first
	 * {@link Waiter#await}: a lock taken at the first attempt costs no subscription.
	 * <p>
	 * The interest is called with the lock resource, on the waiting thread; calls for one
	 * resource may arrive out of order from different threads, so it checks
	 * {@link #isWaitedFor} for the current state.
	 * @param interest the interest to tell, or {@code null} for none
	 */
	public void setInterest(@Nullable Consumer<String> interest) {
		this.interest = interest;
	}

	/**
	 * Register the calling thread as a waiter for the key. Register before the acquire
	 * attempt, so that a release between a failed attempt and the wait is not missed.
	 * @param key what the waiter is woken for: the resource name, or a fair waiter's own
	 * owner token
	 * @return the registration, to close when done waiting
	 */
	public Waiter register(String key) {
		return register(key, key);
	}

	/**
	 * Register the calling thread as a waiter for the key of the given lock resource.
	 * @param key what the waiter is woken for: the resource name, or a fair waiter's own
	 * owner token
	 * @param resource the lock resource waited for
	 * @return the registration, to close when done waiting
	 */
	public Waiter register(String key, String resource) {
		Waiter waiter = new Waiter(key, resource, Thread.currentThread());
		this.waiters.add(key, waiter);
		return waiter;
	}

	/**
	 * Register a waiter that no thread parks for: a non-blocking caller waits by its own
	 * means (a timer) for the {@link Waiter#nextPauseNanos pause} and asks to be called
	 * back at the next wake-up with {@link Waiter#onNextWakeUp}, as the reactive template
	 * does.
	 * @param key what the waiter is woken for: the resource name, or a fair waiter's own
	 * owner token
	 * @param resource the lock resource waited for
	 * @return the registration, to close when done waiting
	 */
	public Waiter registerNonBlocking(String key, String resource) {
		Waiter waiter = new Waiter(key, resource, null);
		this.waiters.add(key, waiter);
		return waiter;
	}

	/**
	 * Tell whether a thread of this application waits for the given lock resource: it
	 * found the lock busy and has not given up or got it since.
	 * @param resource the lock resource
	 * @return whether it has a local waiter
	 */
	public boolean isWaitedFor(String resource) {
		return this.byResource.contains(resource);
	}

	/**
	 * Return the lock resources that threads of this application wait for now.
	 * @return a snapshot of the resources waited for
	 */
	public Set<String> waitedFor() {
		return this.byResource.keys();
	}

	/**
	 * Wake every waiter of the given lock resource, fair ones included, for example once
	 * a subscription to its release channel is in place and a release may have been
	 * missed before.
	 * @param resource the lock resource
	 */
	public void signalResource(String resource) {
		Queue<Waiter> queue = this.byResource.get(resource);
		if (queue != null) {
			queue.forEach(Waiter::wake);
		}
	}

	/**
	 * Wake one waiter of the key, because its lock was released.
	 * @param key the resource name, or the owner token of the fair waiter whose turn it
	 * is
	 */
	public void signal(String key) {
		Queue<Waiter> queue = this.waiters.get(key);
		if (queue != null) {
			for (Waiter waiter : queue) {
				if (waiter.wake()) {
					return;
				}
			}
		}
	}

	/**
	 * Wake every waiter, for example after the notification channel reconnected and
	 * releases may have been missed.
	 */
	public void signalAll() {
		this.waiters.forEach(Waiter::wake);
	}

	/**
	 * Return how many threads are registered as waiting.
	 * @return the number of waiting threads
	 */
	public int waiting() {
		return this.waiters.size();
	}

	private void unregister(Waiter waiter) {
		this.waiters.remove(waiter.key, waiter);
		if (waiter.parked && this.byResource.remove(waiter.resource, waiter)) {
			tellInterest(waiter.resource);
		}
	}

	private void parked(Waiter waiter) {
		if (this.byResource.add(waiter.resource, waiter)) {
			tellInterest(waiter.resource);
		}
	}

	private void tellInterest(String resource) {
		Consumer<String> interest = this.interest;
		if (interest != null) {
			interest.accept(resource);
		}
	}

	/**
	 * One caller's registration as a waiter for one key: a parked thread, or a
	 * non-blocking caller called back when woken.
	 */
	public final class Waiter implements AutoCloseable {

		private final String key;

		private final String resource;

		private final @Nullable Thread thread;

		private final AtomicBoolean woken = new AtomicBoolean();

		private final AtomicReference<@Nullable Runnable> callback = new AtomicReference<>();

		// Only the waiting caller writes it, one call after the other; volatile since a
		// non-blocking caller may call from a different thread each time.
		private volatile boolean parked;

		private final WaitBackoff backoff = new WaitBackoff(LockWaiter.this.initialBackoffNanos,
				LockWaiter.this.maxBackoffNanos);

		Waiter(String key, String resource, @Nullable Thread thread) {
			this.key = key;
			this.resource = resource;
			this.thread = thread;
		}

		/**
		 * Park until woken by a release, until the holder's lease may have run out, until
		 * the backoff passed, or until the deadline, whichever comes first. Call it only
		 * from the thread that registered.
		 * @param busyForNanos the holder's remaining lease in nanoseconds, or a negative
		 * value if unknown
		 * @param deadlineNanos the {@link System#nanoTime()} at which the caller gives up
		 * @throws InterruptedException if the thread was interrupted while parked
		 */
		public void await(long busyForNanos, long deadlineNanos) throws InterruptedException {
			// Checked first: a pending wake-up or a past deadline would skip the park
			// below.
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
			long wakeAt = Math.min(System.nanoTime() + nextPauseNanos(busyForNanos), deadlineNanos);
			long remaining;
			while (!this.woken.get() && (remaining = wakeAt - System.nanoTime()) > 0) {
				LockSupport.parkNanos(this, remaining);
				if (Thread.interrupted()) {
					throw new InterruptedException();
				}
			}
			this.woken.set(false);
		}

		/**
		 * Count this waiter as waiting from now on, and return how long to pause before
		 * the next attempt unless woken first: the backoff, with jitter, at most the
		 * holder's remaining lease. {@link #await} does this itself; a non-blocking
		 * caller calls it, waits that long or until {@link #onNextWakeUp called back},
		 * and then {@link #consumeWakeUp consumes} the wake-up. Call it from one caller
		 * at a time.
		 * @param busyForNanos the holder's remaining lease in nanoseconds, or a negative
		 * value if unknown
		 * @return the pause in nanoseconds
		 */
		public long nextPauseNanos(long busyForNanos) {
			if (!this.parked) {
				this.parked = true;
				parked(this);
			}
			return this.backoff.nextPauseNanos(busyForNanos);
		}

		/**
		 * Have the callback run once at the next wake-up of this
		 * {@link LockWaiter#registerNonBlocking non-blocking} waiter, or at once if it
		 * was woken since its last {@link #consumeWakeUp}. It runs on the thread that
		 * signals, so it must not block. A later call replaces a callback that did not
		 * run yet.
		 * @param callback what to run when woken
		 */
		public void onNextWakeUp(Runnable callback) {
			Assert.state(this.thread == null, "A waiter that parks a thread is woken by unparking it");
			this.callback.set(callback);
			if (this.woken.get()) {
				runCallback();
			}
		}

		/**
		 * Take the wake-up this waiter got, if any, and drop a callback that did not run:
		 * the next pause waits for a new one.
		 */
		public void consumeWakeUp() {
			this.callback.set(null);
			this.woken.set(false);
		}

		private void runCallback() {
			Runnable callback = this.callback.getAndSet(null);
			if (callback != null) {
				callback.run();
			}
		}

		boolean wake() {
			if (this.woken.compareAndSet(false, true)) {
				if (this.thread != null) {
					LockSupport.unpark(this.thread);
				}
				else {
					runCallback();
				}
				return true;
			}
			return false;
		}

		/**
		 * Stop waiting; a wake-up this waiter received but did not use goes to the next
		 * waiter of the key.
		 */
		@Override
		public void close() {
			unregister(this);
			if (this.woken.get()) {
				signal(this.key);
			}
		}

	}

}
