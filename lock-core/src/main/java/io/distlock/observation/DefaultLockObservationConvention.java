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

package io.distlock.observation;

import java.util.Locale;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default {@link LockObservationConvention}: one observation named {@value #NAME} per
 * phase, contextual name {@code "lock acquire <name>"} or {@code "lock hold <name>"} (the
 * span names).
 *
 * <p>
 * Low-cardinality tags, on metrics and spans: {@code distlock.lock.name} (the lock's
 * name, {@code none} when unnamed), {@code distlock.lock.phase} ({@code acquire},
 * {@code hold}) and {@code distlock.outcome}. High-cardinality, on spans only: the
 * fencing token, and the lock key ({@code distlock.lock.key}) only when created to
 * include it, since keys are data (an order id, a user name) that a trace may not be
 * allowed to carry.
 */
public class DefaultLockObservationConvention implements LockObservationConvention {

	/**
	 * The name of lock observations, and of the timers made from them.
	 */
	public static final String NAME = "distlock.lock";

	private final boolean includeKey;

	/**
	 * Create a convention that leaves the lock key out.
	 */
	public DefaultLockObservationConvention() {
		this(false);
	}

	/**
	 * Create a convention that puts the lock key on spans, or leaves it out.
	 * @param includeKey whether spans carry the lock key
	 */
	public DefaultLockObservationConvention(boolean includeKey) {
		this.includeKey = includeKey;
	}

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockObservationContext context) {
		String name = context.getLockName().isEmpty() ? "" : " " + context.getLockName();
		return "lock " + phase(context) + name;
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		String outcome = context.getOutcome();
		return KeyValues.of(
				KeyValue.of("distlock.lock.name", context.getLockName().isEmpty() ? "none" : context.getLockName()),
				KeyValue.of("distlock.lock.phase", phase(context)),
				KeyValue.of("distlock.outcome", (outcome != null) ? outcome : "unknown"));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
		KeyValues values = (context.getFencingToken() >= 0)
				? KeyValues.of("distlock.fencing.token", String.valueOf(context.getFencingToken())) : KeyValues.empty();
		return this.includeKey ? values.and("distlock.lock.key", context.getKey()) : values;
	}

	private static String phase(LockObservationContext context) {
		return context.getPhase().name().toLowerCase(Locale.ROOT);
	}

}
