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

import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Reports the leases of a {@link LeaseRenewer} lost: marks each one at once and runs its
 * callback on the executor of lost callbacks, so that a slow callback delays no renewal
 * and a failing one stops no other.
 */
final class LostLeaseReporter {

	// Logs as the renewer: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaseRenewer.class);

	private final Executor lostCallbacks;

	/**
	 * Create a reporter that runs the callbacks on the given executor.
	 * @param lostCallbacks runs the lost-lease callbacks
	 */
	LostLeaseReporter(Executor lostCallbacks) {
		this.lostCallbacks = lostCallbacks;
	}

	/**
	 * Mark the given lease lost and run its callback on the executor of lost callbacks,
	 * unless it was cancelled.
	 * @param lease a lease that left the registry
	 */
	void report(Lease lease) {
		if (lease.isCancelled()) {
			// Its lock is being released by its owner.
			return;
		}
		// At once, whatever the callbacks queued before this one do.
		lease.markLost();
		try {
			this.lostCallbacks.execute(() -> {
				try {
					lease.onLost().run();
				}
				catch (Throwable ex) {
					// The callback is the caller's code: its failure must not stop the
					// others.
					logger.warn("Lost-lock callback for '" + lease.renewal().key() + "' failed", ex);
				}
			});
		}
		catch (Throwable ex) {
			logger.warn("Could not report lock '" + lease.renewal().key() + "' lost", ex);
		}
	}

}
