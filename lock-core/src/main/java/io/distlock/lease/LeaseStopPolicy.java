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

import org.jspecify.annotations.Nullable;

/**
 * Decides when a lease is no longer renewed although nobody cancelled it: its holder
 * thread ended, or it was held longer than the maximum hold time. A lease
 * {@link LeaseRenewer#registerDetached detached} from any thread (the lock of async work,
 * which outlives the thread that started it) is stopped by the maximum hold time only.
 *
 * <p>
 * Each of these means the lock leaked (its holder will never release it), and renewing it
 * would keep it forever; left alone, it expires within its ttl. The renewer reports such
 * a lease lost, as it does one found gone. An interrupted holder is not among them: an
 * interrupt may be brief and handled (a lost inner lock interrupting its thread, say),
 * and the code that still holds the lock ends it by releasing it.
 */
final class LeaseStopPolicy {

	private final Duration maxHold;

	/**
	 * Create a policy with the given maximum hold time.
	 * @param maxHold how long a lock is renewed at most
	 */
	LeaseStopPolicy(Duration maxHold) {
		this.maxHold = maxHold;
	}

	/**
	 * Return why the given lease must no longer be renewed, or {@code null} to keep
	 * renewing it.
	 * @param lease the lease
	 * @param now the current instant, on the renewer's clock
	 * @return the reason, worded to follow "because", or {@code null}
	 */
	@Nullable String stopReason(Lease lease, Instant now) {
		Thread holder = lease.holder();
		if (holder != null && !holder.isAlive()) {
			return "its holder thread '" + holder.getName() + "' ended without releasing it";
		}
		if (now.isAfter(lease.startedAt().plus(this.maxHold))) {
			return "it was held longer than the maximum hold time of " + this.maxHold.toMillis() + "ms";
		}
		return null;
	}

}
