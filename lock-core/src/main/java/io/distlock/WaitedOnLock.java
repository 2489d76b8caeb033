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

package io.distlock;

import java.time.Duration;

/**
 * How much the callers of this instance have waited for the locks of one name, since it
 * started: the rows of the {@code locks} endpoint's most-waited-on list.
 *
 * @param name the lock name (see {@link LockRequest#name()}), empty for unnamed locks
 * @param waitingNow how many callers wait for a lock of this name now
 * @param waits how many acquisitions with a wait time ended
 * @param totalWait how long they waited in all
 */
public record WaitedOnLock(String name, int waitingNow, long waits, Duration totalWait) {

}
