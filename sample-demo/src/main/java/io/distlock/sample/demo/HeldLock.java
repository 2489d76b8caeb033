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

package io.distlock.sample.demo;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One lock a node holds, as its {@code GET /actuator/locks} lists it.
 *
 * @param key the lock key, without the key prefix
 * @param fencingToken the lock's fencing token
 * @param heldFor how long the lock has been held
 * @param leaseRemaining the lease left as of the last renewal, or {@code null} once it
 * ran out
 * @param autoRenew whether the lease is renewed while the lock is held
 */
public record HeldLock(String key, long fencingToken, Duration heldFor, @Nullable Duration leaseRemaining,
		boolean autoRenew) {

}
