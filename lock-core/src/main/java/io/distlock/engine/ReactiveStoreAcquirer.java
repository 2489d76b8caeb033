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
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.ReactiveLockClient;
import io.distlock.waiting.LockWaiter;

/**
 * Takes a lock for one subscriber without blocking a thread: between attempts it waits on
 * a timer of the scheduler until the lock is released (a {@link LockWaiter} wake-up), the
 * holder's lease may have run out, or a bounded backoff passed; it gives up at its wait
 * time.
 *
 * <p>
 * An attempt that fails, or is cancelled while its command is in flight, may still have
 * taken the lock on Redis, so the owner token is then released, best effort, in the
 * background: the release follows the attempt on the same connection.
 */
final class ReactiveStoreAcquirer {

	// Longer waits count as this, so that the deadline stays a representable nanoTime.
	private static final Duration FOREVER = Duration.ofDays(365L * 100);

	private static final Log logger = LogFactory.getLog(ReactiveStoreAcquirer.class);

	private final ReactiveLockClient client;

	private final LockWaiter waiter;

	private final Scheduler timers;

	ReactiveStoreAcquirer(ReactiveLockClient client, LockWaiter waiter, Scheduler timers) {
		this.client = client;
		this.waiter = waiter;
		this.timers = timers;
	}

	/**
	 * Take the lock, waiting up to the given time while it is busy.
	 * @return a {@link Mono} of the last attempt: acquired, or the busy attempt made at
	 * the deadline; a {@link LockBackendException} if the store failed, or never
	 * confirmed an attempt up to the last
	 */
	Mono<Attempt> acquire(String resource, String ownerToken, Duration ttl, Duration waitTime) {
		return Mono.defer(() -> {
			AtomicBoolean sent = new AtomicBoolean();
			Mono<Attempt> attempts = waitTime.isZero() ? attempt(resource, ownerToken, ttl, sent, false)
					: attempts(resource, ownerToken, ttl, waitTime, sent);
			return attempts.map((attempt) -> confirmed(resource, attempt))
				.doOnError((ex) -> giveBackIfSent(sent, resource, ownerToken))
				.doOnCancel(() -> giveBackIfSent(sent, resource, ownerToken));
		});
	}

	private Mono<Attempt> attempts(String resource, String ownerToken, Duration ttl, Duration waitTime,
			AtomicBoolean sent) {
		long deadline = System.nanoTime() + ((waitTime.compareTo(FOREVER) < 0) ? waitTime : FOREVER).toNanos();
		// Registered before the first attempt, so a release right after it is not missed.
		LockWaiter.Waiter waiting = this.waiter.registerNonBlocking(resource, resource);
		return attempt(resource, ownerToken, ttl, sent, true)
			.expand((last) -> isFinal(last, deadline) ? Mono.empty()
					: pause(waiting, last, deadline).then(attempt(resource, ownerToken, ttl, sent, true)))
			.last()
			.doFinally((signal) -> waiting.close());
	}

	private Mono<Attempt> attempt(String resource, String ownerToken, Duration ttl, AtomicBoolean sent, boolean waits) {
		return Mono.defer(() -> {
			long sentAt = System.nanoTime();
			sent.set(true);
			return (waits ? this.client.tryAcquire(resource, ownerToken, ttl)
					: this.client.tryAcquireOnce(resource, ownerToken, ttl))
				.switchIfEmpty(Mono.error(() -> new LockBackendException(resource,
						"Lock store " + this.client + " gave no answer to acquire lock '" + resource + "'", null)))
				.map((result) -> new Attempt(result, sentAt));
		});
	}

	private static boolean isFinal(Attempt attempt, long deadline) {
		return attempt.result() instanceof AcquireResult.Acquired || deadline - System.nanoTime() <= 0;
	}

	/**
	 * Wait for the next wake-up of the waiter, the pause it sets, or the deadline,
	 * whichever comes first, on a timer: no thread waits.
	 */
	private Mono<Void> pause(LockWaiter.Waiter waiting, Attempt last, long deadline) {
		return Mono.create((sink) -> {
			long pause = Math.min(waiting.nextPauseNanos(retryNanos(last.result())), deadline - System.nanoTime());
			Runnable resume = () -> {
				waiting.consumeWakeUp();
				sink.success();
			};
			Disposable timer = this.timers.schedule(resume, Math.max(pause, 0), TimeUnit.NANOSECONDS);
			sink.onDispose(timer);
			waiting.onNextWakeUp(resume);
		});
	}

	private void giveBackIfSent(AtomicBoolean sent, String resource, String ownerToken) {
		if (!sent.get()) {
			return;
		}
		// Owner-checked, so it never frees another owner's lock.
		this.client.release(resource, ownerToken)
			.subscribe(null, (ex) -> logger.debug("Could not give back lock '" + resource
					+ "' after a failed or cancelled attempt; it expires after its ttl", ex));
	}

	/**
	 * How long the holder may keep the lock at most, or -1 when unknown: then the waiter
	 * backs off.
	 */
	private static long retryNanos(AcquireResult result) {
		Duration remaining = (result instanceof AcquireResult.Busy busy) ? busy.remainingTtl() : null;
		return (remaining != null) ? remaining.toNanos() : -1;
	}

	/**
	 * An attempt that was never confirmed, up to the last, is a backend failure, not a
	 * busy lock: the store could not take the lock safely, busy or not.
	 */
	private static Attempt confirmed(String resource, Attempt attempt) {
		if (attempt.result() instanceof AcquireResult.NotConfirmed notConfirmed) {
			throw new LockBackendException(resource,
					"Lock '" + resource + "' could not be taken: " + notConfirmed.reason(), null);
		}
		return attempt;
	}

}
