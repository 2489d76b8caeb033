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
import java.time.Instant;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockEvent;
import io.distlock.LockRequest;
import io.distlock.lease.Lease;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.AcquireResult;

import org.springframework.util.Assert;

/**
 * The acquisition pipeline of one key, under every blocking front door: an owner token of
 * its own, the local queue or the store, the mapping of interrupts and backend failures,
 * then the hold step: renew, track, wake, observe, report.
 */
final class AcquisitionPipeline {

	private final EngineParts parts;

	AcquisitionPipeline(EngineParts parts) {
		this.parts = parts;
	}

	/**
	 * Take the lock of the request, waiting up to its wait time.
	 * @param request what to lock and how
	 * @param start when the caller started, from {@link System#nanoTime()}
	 * @param detached whether the lease is renewed apart from the calling thread, for
	 * async work
	 * @return the held lock, or {@code null} if it stayed busy
	 */
	@Nullable DefaultLockHandle acquire(LockRequest request, long start, boolean detached) {
		return take(request, start, detached).handle();
	}

	/**
	 * Take the lock of the request, waiting up to its wait time, as
	 * {@link #acquire(LockRequest, long, boolean)} does.
	 * @return the held lock, or how its last attempt was answered
	 */
	Acquisition take(LockRequest request, long start, boolean detached) {
		EngineParts parts = this.parts;
		Assert.isTrue(!request.fair() || parts.acquirer().supportsFair(),
				() -> "Lock '" + request.key() + "' was requested fair, but the lock store "
						+ parts.client().getClass().getName()
						+ " cannot take locks in arrival order (it is no FairLockClient)");
		LockKind kind = LockKind.of(request, parts.client());
		String resource = parts.resource(request.key());
		String owner = parts.newOwnerToken(request.name());
		Observation acquiring = parts.observations().acquiring(request.key(), request.name());
		QueueTicket ticket = parts.localQueues().applies(request, kind)
				? parts.localQueues().enter(resource, owner, request.ttl(), request.autoRenew()) : null;
		Attempt attempt;
		WaitingLocks.Waiting waiting = request.waitTime().isZero() ? null
				: parts.waitingLocks().begin(request.key(), request.name());
		try {
			attempt = (ticket != null)
					? parts.localQueues()
						.acquire(ticket, parts.acquirer(), kind, Attempt.deadline(start, request.waitTime()))
					: parts.acquirer()
						.acquire(resource, owner, request.ttl(), request.waitTime(), request.fair(), kind);
		}
		catch (InterruptedException ex) {
			throw failed(acquiring, interrupted(request.key(), "lock '" + request.key() + "'", start, ex));
		}
		catch (LockBackendException ex) {
			throw failed(acquiring, LockBackendException.forKey(request.key(), ex));
		}
		catch (RuntimeException ex) {
			throw failed(acquiring, ex);
		}
		finally {
			if (waiting != null) {
				waiting.end();
			}
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		if (attempt.result() instanceof AcquireResult.Acquired acquired) {
			LockObservations.stop(acquiring, "acquired", acquired.fencingToken(), null);
			MultiKeyStoreAcquirer.Taken taken = new MultiKeyStoreAcquirer.Taken(
					new MultiKeyStoreAcquirer.Target(request, kind, resource), owner, acquired.fencingToken(),
					attempt.sentAtNanos());
			return new Acquisition((ticket != null) ? holdQueued(taken, waited, detached, ticket)
					: hold(taken, waited, detached, null), null, waited);
		}
		LockObservations.stop(acquiring, "busy", -1, null);
		parts.listener().onNotAcquired(new LockEvent.NotAcquired(request.key(), request.name(), waited));
		return new Acquisition(null, attempt.result(), waited);
	}

	/**
	 * What an acquisition came to.
	 *
	 * @param handle the held lock, or {@code null} if it stayed busy
	 * @param last the answer of the last attempt when it stayed busy
	 * @param waited how long the acquisition took
	 */
	record Acquisition(@Nullable DefaultLockHandle handle, @Nullable AcquireResult last, Duration waited) {

		/**
		 * Return the exception for the request's lock that stayed busy, naming its
		 * holder.
		 */
		LockAcquisitionException busy(LockRequest request) {
			return BusyLocks.busy(request.key(), request.name(), request.waitTime(), this.waited, this.last);
		}

	}

	/**
	 * The exception for a thread interrupted while it waited, with its interrupt kept.
	 */
	static LockAcquisitionException interrupted(String key, String what, long start, InterruptedException ex) {
		Thread.currentThread().interrupt();
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		return new LockAcquisitionException(key, waited,
				"Interrupted after waiting " + waited.toMillis() + "ms for " + what, ex);
	}

	/**
	 * Stop the observation of acquiring as failed, and return the failure to throw.
	 */
	static <X extends RuntimeException> X failed(Observation acquiring, X failure) {
		LockObservations.stop(acquiring, "failed", -1, failure);
		return failure;
	}

	/**
	 * Make a handle of a key taken through the local queue, which its release goes back
	 * through: it may hand the lock to the next thread of this application.
	 */
	private DefaultLockHandle holdQueued(MultiKeyStoreAcquirer.Taken taken, Duration waited, boolean detached,
			QueueTicket ticket) {
		DefaultLockHandle handle;
		try {
			handle = hold(taken, waited, detached, ticket);
		}
		catch (RuntimeException ex) {
			this.parts.localQueues().dropped(ticket);
			throw ex;
		}
		handle.whenLost().thenRun(() -> this.parts.localQueues().lost(ticket));
		return handle;
	}

	/**
	 * Make a handle of a key just taken: renewed, tracked, observed and reported.
	 */
	DefaultLockHandle hold(MultiKeyStoreAcquirer.Taken taken, Duration waited, boolean detached,
			@Nullable QueueTicket ticket) {
		EngineParts parts = this.parts;
		LockRequest request = taken.target().request();
		DefaultLockHandle handle = new DefaultLockHandle(request.key(), request.name(), taken.target().resource(),
				taken.ownerToken(), taken.fencingToken(), parts.client(), parts.listener(), taken.target().kind());
		LeaseRenewer renewer = parts.renewer();
		Instant sentAt = handle.hold().lease().time(renewer.getClock(), taken.sentAtNanos(), request.ttl());
		Lease lease = request.autoRenew() ? renew(handle, renewer, request.ttl(), sentAt, detached) : null;
		HeldLockRegistry heldLocks = parts.heldLocks();
		handle.track(request, renewer.getClock().instant(), lease, heldLocks::remove);
		// The store publishes a release only when a caller announced itself since the
		// lock was taken; a waiter of this application that was not woken by the last
		// release has not announced itself again, so this application wakes it itself.
		String resource = taken.target().resource();
		if (ticket != null) {
			// The queue wakes what it must: the next thread of this application, or those
			// that wait in the store once the lock was let go.
			handle.releaseHooks().releaseWith(() -> parts.localQueues().release(ticket));
		}
		else {
			handle.releaseHooks().afterRelease(() -> parts.waiter().signal(resource));
		}
		heldLocks.add(handle);
		handle.hold().observeHolding(parts.observations().holding(request.key(), request.name(), taken.fencingToken()));
		parts.listener()
			.onAcquired(new LockEvent.Acquired(request.key(), request.name(), taken.fencingToken(), waited));
		return handle;
	}

	private static Lease renew(DefaultLockHandle handle, LeaseRenewer renewer, Duration ttl, Instant startedAt,
			boolean detached) {
		Lease lease;
		try {
			handle.hold().notifyLostOn((notification) -> renewer.notifyListeners(handle.key(), notification));
			// The lease of async work must not stop when the calling thread ends.
			lease = detached
					? renewer.registerDetached(handle.leaseKey(), handle.ownerToken(), ttl, startedAt,
							handle.hold()::markLost)
					: renewer.register(handle.leaseKey(), handle.ownerToken(), ttl, startedAt, handle.hold()::markLost);
		}
		catch (RuntimeException ex) {
			// Not renewed, the lease would run out under the caller: give the lock back.
			try {
				handle.kind().release(handle.resource(), handle.ownerToken());
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		handle.releaseHooks().beforeRelease(lease::cancel);
		return lease;
	}

}
