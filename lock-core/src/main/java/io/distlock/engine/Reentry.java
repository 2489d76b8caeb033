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
 * The rule of re-entry: a nested call for a lock its thread holds runs under the outer
 * call's lock, unless that lock cannot cover it.
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
		// Re-entering would run the nested code as if it held a lock that another owner
		// may hold by now. Taking the lock again would not help: the outer code, told of
		// the loss, would still work under its old fencing token. So the nested call
		// fails as one that got no lock, and never as "busy": no failure policy may skip
		// it quietly.
		if (held instanceof DefaultLockHandle handle && handle.hold().isKnownNotHeld()) {
			throw notReenterable(key, handle.hold().isKnownLost(), "call", "code");
		}
	}

	/**
	 * The failure of a nested call for a lock its outer call no longer holds.
	 * @param key the lock key
	 * @param lost whether the lock was reported lost, rather than released
	 * @param outer what the outer caller is: "call", "action"
	 * @param nested what did not run: "code", "work"
	 * @return the exception to fail the nested call with
	 */
	static LockAcquisitionException notReenterable(String key, boolean lost, String outer, String nested) {
		String why = lost ? "its outer " + outer + " lost it (it was reported lost)"
				: "its outer " + outer + " released it already";
		return new LockAcquisitionException(key, Duration.ZERO,
				"Lock '" + key + "' cannot be re-entered: " + why + "; the nested " + nested + " did not run", null);
	}

}
