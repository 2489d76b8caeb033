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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.distlock.lease.Lease;

/**
 * The lease of one hold, timed on the renewer's clock: it runs out a ttl after the
 * sending of its last confirmed renewal when it is renewed, else a ttl after the sending
 * of its acquisition or of its last {@code extend}. Past that instant another owner may
 * hold the key, whatever the hold's own state says: the renewal may not have run since (a
 * pause of this JVM), and an unrenewed lock is never checked.
 */
final class HoldLease {

	private volatile @Nullable Lease renewal;

	// Null until the pipeline times the lease: such a hold never runs out by the clock.
	private volatile @Nullable Clock clock;

	private volatile @Nullable Instant unrenewedExpiry;

	/**
	 * Set the renewal of this lease.
	 * @param renewal the lease registered with the renewer
	 */
	void renewedBy(Lease renewal) {
		this.renewal = renewal;
	}

	/**
	 * Return the renewal of this lease.
	 * @return the lease registered with the renewer, or {@code null} if not renewed
	 */
	@Nullable Lease renewal() {
		return this.renewal;
	}

	/**
	 * Tell whether the renewer found this lease lost or stopped renewing it.
	 */
	boolean isLost() {
		Lease renewal = this.renewal;
		return renewal != null && renewal.isLost();
	}

	/**
	 * Time this lease on the given clock, from the sending of the acquisition.
	 * @param clock the renewer's clock
	 * @param sentAtNanos when the acquisition was sent, from {@link System#nanoTime()}
	 * @param ttl the lease time
	 * @return when the acquisition was sent, on that clock
	 */
	Instant time(Clock clock, long sentAtNanos, Duration ttl) {
		Instant sentAt = clock.instant().minusNanos(System.nanoTime() - sentAtNanos);
		this.unrenewedExpiry = sentAt.plus(ttl);
		this.clock = clock;
		return sentAt;
	}

	/**
	 * Record that the lock was extended to the given lease by a call sent at the given
	 * time: unless it is renewed, it runs out a lease after that.
	 * @param sentAtNanos when the extension was sent, from {@link System#nanoTime()}
	 * @param leaseTime the lease it was extended to
	 */
	void extended(long sentAtNanos, Duration leaseTime) {
		Clock clock = this.clock;
		if (clock != null) {
			this.unrenewedExpiry = clock.instant().minusNanos(System.nanoTime() - sentAtNanos).plus(leaseTime);
		}
	}

	/**
	 * Return when this lease runs out, by the renewer's clock.
	 * @return the expiry, or {@code null} if the lease was never timed
	 */
	@Nullable Instant expiresAt() {
		Lease renewal = this.renewal;
		return (renewal != null) ? renewal.expiresAt() : this.unrenewedExpiry;
	}

	/**
	 * Return how long ago this lease ran out, by the renewer's clock.
	 * @return the time since it ran out, or {@code null} if it has not (or was never
	 * timed)
	 */
	@Nullable Duration ranOutFor() {
		Clock clock = this.clock;
		Instant expiresAt = expiresAt();
		if (clock == null || expiresAt == null) {
			return null;
		}
		Instant now = clock.instant();
		return now.isBefore(expiresAt) ? null : Duration.between(expiresAt, now);
	}

}
