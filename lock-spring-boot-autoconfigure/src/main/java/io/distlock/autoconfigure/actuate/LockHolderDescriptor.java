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
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.distlock.store.LockHolder;
import io.distlock.store.LockState;

/**
 * One holding of a lock as {@code GET /actuator/locks/{key}} shows it, on any instance:
 * the exclusive lock, a read hold or a permit, with the holder's description as the
 * instance that took it left it in the store. Never the holder's owner token.
 *
 * @param kind {@code exclusive}, {@code read} or {@code permit}
 * @param id an opaque name of the acquisition, different for the next one
 * @param instance the holder's instance name, or {@code null} when its owner token
 * describes no holder
 * @param thread the name of the thread that took it, or {@code null}
 * @param name the lock's name (the annotated method or the request's name), empty when
 * unnamed, or {@code null}
 * @param acquiredAt when the holder asked for it, by its own clock, or {@code null}
 * @param remainingLease how long its lease still runs, or {@code null} when it has no
 * expiry
 */
public record LockHolderDescriptor(String kind, String id, @Nullable String instance, @Nullable String thread,
		@Nullable String name, @Nullable Instant acquiredAt, @Nullable Duration remainingLease) {

	LockHolderDescriptor(LockState.Holding holding) {
		this(holding.kind().name().toLowerCase(Locale.ROOT), holding.id(), holding.holder(), holding.remainingLease());
	}

	private LockHolderDescriptor(String kind, String id, @Nullable LockHolder holder,
			@Nullable Duration remainingLease) {
		this(kind, id, (holder != null) ? holder.instance() : null, (holder != null) ? holder.thread() : null,
				(holder != null) ? holder.name() : null, (holder != null) ? holder.acquiredAt() : null, remainingLease);
	}

}
