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

package io.distlock.leader;

import java.util.concurrent.CompletableFuture;

import io.distlock.HeldLock;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;

/**
 * The leadership an instance holds: the leadership lock, and the signal of its loss.
 *
 * @param lock the leadership lock
 * @param lost completes when a renewal finds the lock lost
 */
record Leadership(LockHandle lock, CompletableFuture<Void> lost) {

	/**
	 * The name of the leadership lock in listener events, metrics and the locks endpoint.
	 */
	static final String LOCK_NAME = "leader";

	/**
	 * Tell whether this leadership still holds: no renewal found it lost, and its lease
	 * has not run out by the renewer's clock, as the given template lists the lock.
	 * @param key the key of the leadership lock
	 * @param template the template that took the lock
	 * @return whether the instance still leads
	 */
	boolean isCurrent(String key, LockTemplate template) {
		if (this.lost.isDone()) {
			return false;
		}
		// The lease as the template sees it: no remaining lease once it ran out by the
		// renewer's clock, or the lock was marked lost.
		long token = this.lock.fencingToken();
		for (HeldLock held : template.getEngine().getHeldLocks()) {
			// The registry is the application's: other locks are listed beside this one.
			if (held.key().equals(key) && held.name().equals(LOCK_NAME) && held.fencingToken() == token
					&& held.leaseRemaining() != null) {
				return true;
			}
		}
		return false;
	}

}
