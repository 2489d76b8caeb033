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

package io.distlock.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of a lock knows: which lock, in which phase (waiting for it, or
 * holding it), and how that phase ended.
 *
 * @see LockObservationConvention
 */
public class LockObservationContext extends Observation.Context {

	/**
	 * The event of a held lock found lost while its owner still worked under it, on the
	 * observation of holding it: a span event, and the counter {@code distlock.lock.lost}
	 * when the observations make metrics. Signalled after the lock's
	 * {@link io.distlock.LockHandle#whenLost()} completed, never before.
	 */
	public static final Observation.Event LOST = Observation.Event.of("lost", "lock lost");

	private final Phase phase;

	private final String key;

	private final String lockName;

	private @Nullable String outcome;

	private long fencingToken = -1;

	/**
	 * Create a context for one phase of one lock.
	 * @param phase waiting for the lock, or holding it
	 * @param key the lock key, without the key prefix
	 * @param lockName the lock's name, empty when unnamed
	 */
	public LockObservationContext(Phase phase, String key, String lockName) {
		this.phase = phase;
		this.key = key;
		this.lockName = lockName;
	}

	/**
	 * Return the phase observed.
	 * @return the phase
	 */
	public Phase getPhase() {
		return this.phase;
	}

	/**
	 * Return the lock key: data, so never a metric tag.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return the lock's name, chosen by the code.
	 * @return the name, empty when unnamed
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * Return how the phase ended: {@code acquired}, {@code busy}, {@code failed} or
	 * ({@link io.distlock.reactive.ReactiveLockTemplate reactive} only) {@code cancelled}
	 * for acquisition; {@code released}, {@code mismatch} (the lock had expired or was
	 * taken by another owner when released, as {@code LockListener.onReleaseMismatch}
	 * reports) or {@code failed} for holding.
	 * @return the outcome, or {@code null} while the phase goes on
	 */
	public @Nullable String getOutcome() {
		return this.outcome;
	}

	/**
	 * Set how the phase ended.
	 * @param outcome the outcome
	 */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

	/**
	 * Return the fencing token of the acquisition.
	 * @return the token, or -1 before the lock was acquired
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Set the fencing token of the acquisition.
	 * @param fencingToken the token
	 */
	public void setFencingToken(long fencingToken) {
		this.fencingToken = fencingToken;
	}

	/**
	 * The phases of a lock that are observed.
	 */
	public enum Phase {

		/**
		 * Taking the lock, waiting while it is busy.
		 */
		ACQUIRE,

		/**
		 * Holding the lock, from its acquisition to its release.
		 */
		HOLD

	}

}
