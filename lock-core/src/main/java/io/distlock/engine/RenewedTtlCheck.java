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

import io.distlock.LockRequest;
import io.distlock.MultiLockRequest;

/**
 * Refuses, at every front door of the engine, a request for a renewed lease shorter than
 * {@link LockRequest#MIN_RENEWED_TTL}, which renewal cannot keep: the lock would be lost
 * at the first late renewal while its holder still runs. A lease that is not renewed may
 * be as short as asked.
 */
final class RenewedTtlCheck {

	private RenewedTtlCheck() {
	}

	/**
	 * Refuse the request if its lease is renewed and too short to be.
	 * @param request what to lock and how
	 * @throws IllegalArgumentException naming the key, the ttl and the minimum
	 */
	static void check(LockRequest request) {
		if (request.autoRenew()) {
			check("Lock '" + request.key() + "'", request.ttl());
		}
	}

	/**
	 * Refuse the request if its leases are renewed and too short to be.
	 * @param request what to lock and how
	 * @throws IllegalArgumentException naming the keys, the ttl and the minimum
	 */
	static void check(MultiLockRequest request) {
		if (request.autoRenew()) {
			check("Locks " + request.keys(), request.ttl());
		}
	}

	private static void check(String what, Duration ttl) {
		if (ttl.compareTo(LockRequest.MIN_RENEWED_TTL) < 0) {
			long millis = ttl.toMillis();
			throw new IllegalArgumentException(what + ": a ttl of " + millis
					+ "ms is too short for a lease that is renewed: it must be at least "
					+ LockRequest.MIN_RENEWED_TTL.toMillis() + "ms (LockRequest.MIN_RENEWED_TTL), since the lease is "
					+ "renewed every third of its ttl and a renewal later than the other two thirds loses the lock "
					+ "while the work still runs. Use a longer ttl, such as Duration.ofSeconds(" + millis + ") if "
					+ millis + " seconds were meant, or autoRenew false for a lease held for its ttl at most");
		}
	}

}
