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

package io.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;

import io.distlock.WaitingLock;

/**
 * One caller of this instance waiting for a lock, as the {@code locks} endpoint lists it.
 *
 * @param key the lock key, without the key prefix; {@code ******} unless shown
 * @param name the lock's name, empty when unnamed
 * @param thread the name of the waiting thread
 * @param since when it began to wait
 * @param waitingFor how long it has waited
 */
public record WaitingLockDescriptor(String key, String name, String thread, Instant since, Duration waitingFor) {

	WaitingLockDescriptor(WaitingLock waiting, String key) {
		this(key, waiting.name(), waiting.thread(), waiting.since(), waiting.waitingFor());
	}

}
