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
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import io.distlock.LockBackendException;
import io.distlock.LockEvent;
import io.distlock.LockRequest;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.AcquireResult;
import io.distlock.store.ReactiveLockClient;

/**
 * The acquisition pipeline of one key for reactive work, without blocking: the steps of
 * {@link AcquisitionPipeline} (owner token, the store, the mapping of backend failures,
 * then renew, track, wake, observe, report) over a {@link ReactiveLockClient}, and the
 * release policy of reactive work.
 */
final class ReactivePipeline {

	private static final Log logger = LogFactory.getLog("io.distlock.reactive.ReactiveLockTemplate");

	private final ReactiveLockClient client;

	private final EngineParts parts;

	private final ReactiveStoreAcquirer acquirer;

	ReactivePipeline(ReactiveLockClient client, EngineParts parts, Scheduler timers) {
		this.client = client;
		this.parts = parts;
		this.acquirer = new ReactiveStoreAcquirer(client, parts.waiter(), timers);
	}

	ReactiveLockClient client() {
		return this.client;
	}

	String resource(String key) {
		return this.parts.resource(key);
	}

	/**
	 * Take the lock of the request: the held lock, or the exception telling that it
	 * stayed busy.
	 */
	Mono<Object> acquire(LockRequest request) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			String resource = resource(request.key());
			String owner = this.parts.newOwnerToken(request.name());
			Observation acquiring = this.parts.observations().acquiring(request.key(), request.name());
			return this.acquirer.acquire(resource, owner, request.ttl(), request.waitTime())
				.onErrorMap(LockBackendException.class, (ex) -> LockBackendException.forKey(request.key(), ex))
				.map((attempt) -> outcome(request, resource, owner, attempt, start, acquiring))
				.doOnError((ex) -> LockObservations.stop(acquiring, "failed", -1, ex))
				.doOnCancel(() -> LockObservations.stop(acquiring, "cancelled", -1, null));
		});
	}

	private Object outcome(LockRequest request, String resource, String owner, Attempt attempt, long start,
			Observation acquiring) {
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		if (!(attempt.result() instanceof AcquireResult.Acquired acquired)) {
			LockObservations.stop(acquiring, "busy", -1, null);
			this.parts.listener().onNotAcquired(new LockEvent.NotAcquired(request.key(), request.name(), waited));
			return BusyLocks.busy(request.key(), request.name(), request.waitTime(), waited, attempt.result());
		}
		LeaseRenewer renewer = renewer();
		HeldLockRegistry heldLocks = this.parts.heldLocks();
		// As the blocking pipeline does: a waiter of this application that the store does
		// not notify of this release is woken here.
		HeldReactiveLock lock = new HeldReactiveLock(request, resource, owner, acquired.fencingToken(), this.client,
				this.parts.listener(), renewer.getClock().instant(), heldLocks::remove, this.parts.waiter()::signal);
		Instant sentAt = lock.hold().lease().time(renewer.getClock(), attempt.sentAtNanos(), request.ttl());
		if (request.autoRenew()) {
			renew(lock, renewer, request, sentAt);
		}
		heldLocks.add(lock);
		LockObservations.stop(acquiring, "acquired", acquired.fencingToken(), null);
		lock.observeHolding(this.parts.observations().holding(request.key(), request.name(), acquired.fencingToken()));
		this.parts.listener()
			.onAcquired(new LockEvent.Acquired(request.key(), request.name(), acquired.fencingToken(), waited));
		return lock;
	}

	private void renew(HeldReactiveLock lock, LeaseRenewer renewer, LockRequest request, Instant startedAt) {
		try {
			lock.notifyLostOn((notification) -> renewer.notifyListeners(request.key(), notification));
			lock.renewedBy(renewer.registerDetached(lock.resource(), lock.ownerToken(), request.ttl(), startedAt,
					lock::markLost));
		}
		catch (RuntimeException ex) {
			// Not renewed, the lease would run out under the action: give the lock back.
			this.client.release(lock.resource(), lock.ownerToken())
				.subscribe(null,
						(releaseFailure) -> logger.debug(
								"Could not give back lock '" + request.key()
										+ "' that no renewal could be registered for; it expires after its ttl",
								releaseFailure));
			throw ex;
		}
	}

	LeaseRenewer renewer() {
		return this.parts.renewer();
	}

	Mono<Void> releaseAfterSuccess(Object outcome) {
		if (!(outcome instanceof HeldReactiveLock lock)) {
			return Mono.empty();
		}
		return lock.release().onErrorResume((ex) -> {
			// The work is done: failing now would invite the subscriber to run it again.
			logger.warn("Could not release lock '" + lock.key()
					+ "' after its reactive work completed; it expires after its ttl", ex);
			return Mono.empty();
		});
	}

	Mono<Void> releaseAfterFailure(Object outcome, Throwable failure) {
		if (!(outcome instanceof HeldReactiveLock lock)) {
			return Mono.empty();
		}
		return lock.release().onErrorResume((ex) -> {
			failure.addSuppressed(ex);
			return Mono.empty();
		});
	}

	Mono<Void> releaseAfterCancel(Object outcome) {
		if (!(outcome instanceof HeldReactiveLock lock)) {
			return Mono.empty();
		}
		return lock.release().onErrorResume((ex) -> {
			logger.warn("Could not release lock '" + lock.key()
					+ "' after its reactive work was cancelled; it expires after its ttl", ex);
			return Mono.empty();
		});
	}

}
