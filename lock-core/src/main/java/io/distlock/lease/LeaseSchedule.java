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

import java.time.Duration;
import java.time.Instant;

/**
 * The timing of one lease: when it is due for renewal and when it runs out, as instants
 * of the renewer's clock.
 *
 * <p>
 * A lease is renewed every third of its ttl, counted from when the renewal before it was
 * sent. It may be renewed up to an eighth of that interval early, to share a batch with
 * another lease due then. A failed renewal is retried every quarter of the interval (at
 * least every 10ms) until the lease runs out. Only the renewal tick changes the schedule.
 */
final class LeaseSchedule {

	private static final Duration MIN_RETRY = Duration.ofMillis(10);

	private final Duration ttl;

	private final Duration interval;

	// Renewed up to this much early when another lease is due, to share its batch.
	private final Duration slack;

	private final Duration retry;

	private volatile Instant dueAt;

	private volatile Instant expiresAt;

	/**
	 * Create the schedule of a lease that started at the given instant.
	 * @param ttl the lease time
	 * @param startedAt when the lease started: when its acquisition was sent
	 */
	LeaseSchedule(Duration ttl, Instant startedAt) {
		this.ttl = ttl;
		this.interval = Duration.ofNanos(Math.max(1, ttl.toNanos() / 3));
		this.slack = Duration.ofNanos(this.interval.toNanos() / 8);
		Duration quarter = Duration.ofNanos(this.interval.toNanos() / 4);
		this.retry = (quarter.compareTo(MIN_RETRY) > 0) ? quarter : MIN_RETRY;
		this.dueAt = startedAt.plus(this.interval);
		this.expiresAt = startedAt.plus(ttl);
	}

	/**
	 * Return when the lease is due for renewal.
	 * @return the due instant
	 */
	Instant dueAt() {
		return this.dueAt;
	}

	/**
	 * Return when the lease runs out unless renewed.
	 * @return the expiry instant
	 */
	Instant expiresAt() {
		return this.expiresAt;
	}

	/**
	 * Tell whether the lease should be renewed at the given instant, allowing for the
	 * slack that lets it join an earlier batch.
	 * @param now the current instant
	 * @return whether to renew it now
	 */
	boolean isDue(Instant now) {
		return !this.dueAt.minus(this.slack).isAfter(now);
	}

	/**
	 * Tell whether the lease is behind on renewal: the renewal due an interval after the
	 * last confirmed one is still unconfirmed a retry period later, because the store
	 * failed it or has not answered yet. A healthy lease, renewed on time or a little
	 * early, is not.
	 * @param now the current instant
	 * @return whether the renewal is overdue
	 */
	boolean isOverdue(Instant now) {
		Instant lastConfirmed = this.expiresAt.minus(this.ttl);
		return !now.isBefore(lastConfirmed.plus(this.interval).plus(this.retry));
	}

	/**
	 * Record a successful renewal: the lease runs a full ttl from when it was sent.
	 * @param sentAt when the renewal was sent
	 */
	void renewed(Instant sentAt) {
		this.expiresAt = sentAt.plus(this.ttl);
		this.dueAt = sentAt.plus(this.interval);
	}

	/**
	 * Record a failed renewal: schedule a retry if the lease has not run out yet.
	 * @param now the current instant
	 * @return {@code true} if a retry was scheduled, {@code false} if the lease ran out
	 */
	boolean retry(Instant now) {
		if (!now.isBefore(this.expiresAt)) {
			return false;
		}
		this.dueAt = now.plus(this.retry);
		return true;
	}

}
