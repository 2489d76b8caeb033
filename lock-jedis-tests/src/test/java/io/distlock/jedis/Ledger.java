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

package io.distlock.jedis;

import io.distlock.annotation.DistributedLocked;

/**
 * A service with locked methods, as an application writes them.
 */
class Ledger {

	/**
	 * Run the given section under the distributed lock of the ledger.
	 * @param ledgerId the ledger, which names the lock
	 * @param section what to run holding the lock
	 */
	@DistributedLocked(key = "'ledger:' + #ledgerId", ttl = "10s", waitTime = "60s")
	public void post(long ledgerId, Runnable section) {
		section.run();
	}

	/**
	 * Run the given section under the ledger's lock with a lease far shorter than the
	 * section, which only renewal keeps held.
	 * @param ledgerId the ledger, which names the lock
	 * @param section what to run holding the lock
	 */
	@DistributedLocked(key = "'ledger:' + #ledgerId", ttl = "900ms", waitTime = "0s")
	public void reconcile(long ledgerId, Runnable section) {
		section.run();
	}

}
