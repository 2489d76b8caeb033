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

package io.distlock.faults.client;

import java.util.function.Consumer;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.annotation.DistributedLocked;

/**
 * The annotation path of the clients: a method locked with {@code @DistributedLocked},
 * whose body reads its lock (and fencing token) from {@link LockContext}.
 */
public class LockedWork {

	/**
	 * Run the critical section under the lock of the key.
	 * @param key the lock key
	 * @param section the critical section, given the held lock
	 */
	@DistributedLocked(key = "#key", ttl = "${faults.ttl}", waitTime = "${faults.wait-time}")
	public void run(String key, Consumer<LockHandle> section) {
		section.accept(LockContext.current().orElseThrow());
	}

}
