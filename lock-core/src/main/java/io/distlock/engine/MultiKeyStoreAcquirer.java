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

import java.util.Objects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.LockRequest;
import io.distlock.store.AcquireResult;
import io.distlock.waiting.LockWaiter;

/**
 * Takes several keys for one caller, all or none: it tries them one after the other in
 * their global order, and when one is busy it gives back those it took, waits for that
 * one, and starts over. It never waits while holding a key, so callers with overlapping
 * keys cannot wait for each other in a cycle, and the global order keeps two of them from
 * taking each other's first keys over and over.
 */
final class MultiKeyStoreAcquirer {

	private static final Log logger = LogFactory.getLog(MultiKeyStoreAcquirer.class);

	// Longer waits count as this, so that the deadline stays a representable nanoTime.
	private static final Duration FOREVER = Duration.ofDays(365L * 100);

	private final StoreAcquirer acquirer;

	MultiKeyStoreAcquirer(StoreAcquirer acquirer) {
		this.acquirer = acquirer;
	}

	/**
	 * Take every key, waiting up to the requests' wait time until they are all free.
	 * @param targets the keys to take, in their global order
	 * @param owners the owner token of each key, in the same order
	 * @param waitTime how long to wait; zero means one pass
	 * @param start when the caller started, in {@link System#nanoTime()}
	 * @return the keys taken, or the key that was busy at the deadline
	 * @throws InterruptedException if the thread was interrupted; nothing is held then
	 * @throws LockBackendException if the store failed; what was taken was given back,
	 * best effort
	 */
	Outcome acquire(List<Target> targets, List<String> owners, Duration waitTime, long start)
			throws InterruptedException {
		long deadline = start + ((waitTime.compareTo(FOREVER) < 0) ? waitTime : FOREVER).toNanos();
		// The key found busy by the last pass, if any.
		@Nullable Target waitedFor = null;
		while (true) {
			// Registered before the pass, as StoreAcquirer does it: a release of the key
			// after the pass found it busy then wakes this caller. Registered after it, a
			// release while the caller gives back its keys would be missed, and the
			// caller would sleep for its backoff or the holder's whole lease.
			try (LockWaiter.Waiter waiting = (waitedFor != null)
					? this.acquirer.waiter().register(waitedFor.resource(), waitedFor.resource()) : null) {
				Pass pass = pass(targets, owners, !waitTime.isZero());
				if (pass.busy() == null) {
					return new Outcome(pass.taken(), null, null);
				}
				// Never wait holding a key: the busy key's holder may wait for it.
				RuntimeException releaseFailure = giveBack(pass.taken());
				if (releaseFailure != null) {
					throw releaseFailure;
				}
				Target busy = pass.busy();
				AcquireResult busyResult = Objects.requireNonNull(pass.busyResult());
				String busyOwner = owners.get(targets.indexOf(busy));
				if (waitTime.isZero() || deadline - System.nanoTime() <= 0) {
					this.acquirer.stopWaiting(busy.resource(), busyOwner, busyResult);
					return new Outcome(List.of(), busy, busyResult);
				}
				if (waiting != null && busy == waitedFor) {
					try {
						waiting.await(Attempt.retryNanos(busyResult), deadline);
					}
					catch (InterruptedException ex) {
						this.acquirer.stopWaiting(busy.resource(), busyOwner, busyResult);
						throw ex;
					}
				}
				// The next pass registers for the busy key first; it follows at once when
				// this pass found a key busy that it had not registered for.
				waitedFor = pass.busy();
			}
		}
	}

	/**
	 * Try every key once, in their global order, up to the first busy one; announced to
	 * the busy key's holder when the caller waits for it.
	 * @return the keys taken, and the busy key if there was one
	 * @throws InterruptedException if the thread was interrupted; what was taken was
	 * given back
	 */
	private Pass pass(List<Target> targets, List<String> owners, boolean waits) throws InterruptedException {
		List<Taken> taken = new ArrayList<>(targets.size());
		try {
			for (int i = 0; i < targets.size(); i++) {
				Target target = targets.get(i);
				Attempt attempt = this.acquirer.tryOnce(target.resource(), owners.get(i), target.request().ttl(),
						target.kind(), waits);
				if (!(attempt.result() instanceof AcquireResult.Acquired acquired)) {
					return new Pass(taken, target, attempt.result());
				}
				taken.add(new Taken(target, owners.get(i), acquired.fencingToken(), attempt.sentAtNanos()));
			}
		}
		catch (InterruptedException | RuntimeException ex) {
			RuntimeException releaseFailure = giveBack(taken);
			if (releaseFailure != null) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		return new Pass(taken, null, null);
	}

	private static @Nullable RuntimeException giveBack(List<Taken> taken) {
		RuntimeException failure = null;
		for (int i = taken.size() - 1; i >= 0; i--) {
			Taken key = taken.get(i);
			try {
				key.target().kind().release(key.target().resource(), key.ownerToken());
			}
			catch (RuntimeException ex) {
				logger.debug("Could not give back lock '" + key.target().request().key()
						+ "' of a partial acquisition; it expires after its ttl", ex);
				if (failure == null) {
					failure = (ex instanceof LockBackendException backend)
							? LockBackendException.forKey(key.target().request().key(), backend) : ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		return failure;
	}

	/**
	 * One key to take.
	 *
	 * @param request the key's request
	 * @param kind how the key is held
	 * @param resource its resource name
	 */
	record Target(LockRequest request, LockKind kind, String resource) {

	}

	/**
	 * One key taken.
	 *
	 * @param target the key
	 * @param ownerToken the owner token it was taken with
	 * @param fencingToken its fencing token
	 * @param sentAtNanos when the attempt that took it was sent
	 */
	record Taken(Target target, String ownerToken, long fencingToken, long sentAtNanos) {

	}

	/**
	 * One pass over the keys.
	 *
	 * @param taken the keys taken, in their order
	 * @param busy the key found busy, which ended the pass, or {@code null}
	 * @param busyResult the answer for the busy key, or {@code null}
	 */
	private record Pass(List<Taken> taken, @Nullable Target busy, @Nullable AcquireResult busyResult) {

	}

	/**
	 * The keys taken, or the key that stayed busy.
	 *
	 * @param taken every key, when all were taken; empty otherwise
	 * @param busy the key that was busy at the deadline, or {@code null}
	 * @param busyResult the answer of the last attempt at the busy key, or {@code null}
	 */
	record Outcome(List<Taken> taken, @Nullable Target busy, @Nullable AcquireResult busyResult) {

	}

}
