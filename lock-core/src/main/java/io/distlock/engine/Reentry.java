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

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;

/**
 * The rule of re-entry: a nested call for a lock its thread (or pipeline) holds runs
 * under the outer call's lock, unless that lock cannot cover it: held another way, known
 * lost, released, or past the end of its lease by the renewer's clock.
 *
 * <p>
 * Such a nested call fails, as one that got no lock, and never as "busy", so that no
 * failure policy skips it quietly. It does not take the lock again either: the outer
 * code, still running, would go on working under its old fencing token beside a new
 * holder's. A lease that ran out is refused even before anyone finds it lost: the renewer
 * may not have run since (a pause of this JVM), and a lock without auto-renew is never
 * checked, so another owner may hold the key by then.
 */
final class Reentry {

	private Reentry() {
	}

	/**
	 * Check that a nested call for the request may run under the lock its thread holds.
	 * @param held the lock bound by the outer call
	 * @param request what the nested call asks for
	 * @throws LockAcquisitionException if the held lock cannot cover the nested call
	 */
	static void assertReenterable(LockHandle held, LockRequest request) {
		String key = request.key();
		if (held instanceof DefaultLockHandle handle && !handle.kind().covers(request)) {
			// A reader cannot become a writer while it reads: it would wait for itself.
			throw new LockAcquisitionException(key, Duration.ZERO,
					"Lock '" + key + "' cannot be taken as " + LockKind.describe(request)
							+ " by nested code: this thread holds it as " + handle.kind().describe()
							+ "; the nested code did not run",
					null);
		}
		if (held instanceof DefaultLockHandle handle) {
			assertReenterable(handle.hold(), key, "call", "code");
		}
	}

	/**
	 * Check that the lock of the given hold may be re-entered: it is held, as far as this
	 * application knows, and its lease has not run out by the renewer's clock.
	 * @param hold the state of the outer hold
	 * @param key the lock key
	 * @param outer what the outer caller is: "call", "action"
	 * @param nested what would not run: "code", "work"
	 * @throws LockAcquisitionException if it may not
	 */
	static void assertReenterable(HoldState hold, String key, String outer, String nested) {
		String why;
		if (hold.isKnownNotHeld()) {
			why = hold.isKnownLost() ? "its outer " + outer + " lost it (it was reported lost)"
					: "its outer " + outer + " released it already";
		}
		else {
			Duration ranOutFor = hold.lease().ranOutFor();
			if (ranOutFor == null) {
				return;
			}
			why = "the lease of its outer " + outer + " ran out " + ranOutFor.toMillis()
					+ "ms ago by this application's clock (a pause, or work longer than an unrenewed ttl), "
					+ "so another owner may hold it";
		}
		throw new LockAcquisitionException(key, Duration.ZERO,
				"Lock '" + key + "' cannot be re-entered: " + why + "; the nested " + nested + " did not run", null);
	}

}
