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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockEvent;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.MultiLockRequest;

import org.springframework.util.Assert;

/**
 * The acquisition of several keys, all or none: each key is taken as the single-key
 * pipeline takes it, and if one cannot be held every key taken is given back.
 */
final class MultiKeyPipeline {

	private final EngineParts parts;

	private final AcquisitionPipeline pipeline;

	private final MultiKeyStoreAcquirer acquirer;

	MultiKeyPipeline(EngineParts parts, AcquisitionPipeline pipeline) {
		this.parts = parts;
		this.pipeline = pipeline;
		this.acquirer = new MultiKeyStoreAcquirer(parts.acquirer());
	}

	/**
	 * Take the given keys of the request, all or none, and make one handle of them and
	 * the locks re-entered from outer calls.
	 * @param request what to lock and how
	 * @param keys the keys to take, those of the request not re-entered
	 * @param reentered the locks of the request's other keys, held by outer calls
	 * @param start when the caller started, from {@link System#nanoTime()}
	 * @return the locks, or why there are none
	 */
	Outcome acquire(MultiLockRequest request, List<String> keys, List<LockHandle> reentered, long start) {
		List<MultiKeyStoreAcquirer.Target> targets = new ArrayList<>(keys.size());
		List<String> owners = new ArrayList<>(keys.size());
		for (String key : keys) {
			LockRequest single = request.requestFor(key);
			targets.add(new MultiKeyStoreAcquirer.Target(single, LockKind.of(single, this.parts.client()),
					this.parts.resource(key)));
			owners.add(this.parts.newOwnerToken(request.name()));
		}
		String description = String.join(", ", request.keys());
		Observation acquiring = this.parts.observations().acquiring(description, request.name());
		MultiKeyStoreAcquirer.Outcome outcome;
		WaitingLocks.Waiting waiting = request.waitTime().isZero() ? null
				: this.parts.waitingLocks().begin(description, request.name());
		try {
			outcome = this.acquirer.acquire(targets, owners, request.waitTime(), start);
		}
		catch (InterruptedException ex) {
			throw AcquisitionPipeline.failed(acquiring,
					AcquisitionPipeline.interrupted(description, "locks [" + description + "]", start, ex));
		}
		catch (RuntimeException ex) {
			throw AcquisitionPipeline.failed(acquiring, ex);
		}
		finally {
			if (waiting != null) {
				waiting.end();
			}
		}
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		MultiKeyStoreAcquirer.Target busy = outcome.busy();
		if (busy != null) {
			LockObservations.stop(acquiring, "busy", -1, null);
			String busyKey = busy.request().key();
			this.parts.listener().onNotAcquired(new LockEvent.NotAcquired(busyKey, request.name(), waited));
			return new Outcome(null, BusyLocks.busy(description, busyKey, request.name(), request.waitTime(), waited,
					outcome.busyResult()));
		}
		LockObservations.stop(acquiring, "acquired", -1, null);
		List<DefaultLockHandle> taken = holdAll(outcome.taken(), waited);
		List<LockHandle> all = new ArrayList<>(reentered);
		all.addAll(taken);
		all.sort(Comparator.comparing(LockHandle::key));
		return new Outcome(new DefaultMultiLockHandle(all, Set.copyOf(taken)), null);
	}

	private List<DefaultLockHandle> holdAll(List<MultiKeyStoreAcquirer.Taken> keys, Duration waited) {
		List<DefaultLockHandle> taken = new ArrayList<>(keys.size());
		try {
			for (MultiKeyStoreAcquirer.Taken key : keys) {
				taken.add(this.pipeline.hold(key, waited, false, null));
			}
			return taken;
		}
		catch (RuntimeException ex) {
			// Not all of them renewed: give every key back, none is used.
			for (MultiKeyStoreAcquirer.Taken key : keys.subList(taken.size() + 1, keys.size())) {
				try {
					key.target().kind().release(key.target().resource(), key.ownerToken());
				}
				catch (RuntimeException releaseFailure) {
					ex.addSuppressed(releaseFailure);
				}
			}
			RuntimeException releaseFailure = DefaultMultiLockHandle.releaseAll(taken);
			if (releaseFailure != null) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
	}

	/**
	 * The locks of a multi-key acquisition, or why there are none.
	 */
	record Outcome(@Nullable DefaultMultiLockHandle locks, @Nullable LockAcquisitionException busy) {

		LockAcquisitionException requireBusy() {
			Assert.state(this.busy != null, "Neither locks nor a busy key");
			return this.busy;
		}

	}

}
