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

import io.distlock.store.Renewal;

import java.time.Instant;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * One lease kept alive by a {@link LeaseRenewer}, until cancelled.
 *
 * @see LeaseRenewer#register(String, String, java.time.Duration, Instant, Runnable)
 */
public final class Lease {

	private final Renewal renewal;

	// Null for a lease detached from any thread (async work): its renewal does not stop
	// when a thread ends.
	private final @Nullable Thread holder;

	private final Instant startedAt;

	private final LeaseSchedule schedule;

	private final Runnable onLost;

	private final Consumer<Lease> onCancel;

	private volatile boolean cancelled;

	private volatile boolean lost;

	// Whether a renewal call for this lease is under way; only the renewal tick reads and
	// writes it.
	private volatile boolean renewing;

	Lease(Renewal renewal, @Nullable Thread holder, Instant startedAt, Runnable onLost, Consumer<Lease> onCancel) {
		this.renewal = renewal;
		this.holder = holder;
		this.startedAt = startedAt;
		this.schedule = new LeaseSchedule(renewal.ttl(), startedAt);
		this.onLost = onLost;
		this.onCancel = onCancel;
	}

	/**
	 * Stop renewing this lease. Call it before releasing the lock, so that no new renewal
	 * starts after the release; one already on its way is harmless, as a renewal only
	 * extends a lock its owner still holds and never recreates it.
	 */
	public void cancel() {
		this.cancelled = true;
		this.onCancel.accept(this);
	}

	/**
	 * Return when this lease runs out unless renewed again: a ttl after the sending of
	 * the last confirmed renewal, or of the acquisition.
	 * @return the expiry, read on the renewer's clock
	 */
	public Instant expiresAt() {
		return this.schedule.expiresAt();
	}

	/**
	 * Tell whether the renewer found this lease lost, or stopped renewing it without a
	 * release (maximum hold time, holder thread ended, renewer closed). Set at that
	 * instant on the renewal thread, before the lost callback runs and before any
	 * listener hears of it.
	 * @return whether this lease is lost
	 */
	public boolean isLost() {
		return this.lost;
	}

	Renewal renewal() {
		return this.renewal;
	}

	@Nullable Thread holder() {
		return this.holder;
	}

	Instant startedAt() {
		return this.startedAt;
	}

	LeaseSchedule schedule() {
		return this.schedule;
	}

	Runnable onLost() {
		return this.onLost;
	}

	boolean isCancelled() {
		return this.cancelled;
	}

	void markLost() {
		this.lost = true;
	}

	boolean isRenewing() {
		return this.renewing;
	}

	void renewing(boolean renewing) {
		this.renewing = renewing;
	}

	@Override
	public String toString() {
		return "Lease of '" + this.renewal.key() + "'";
	}

}
