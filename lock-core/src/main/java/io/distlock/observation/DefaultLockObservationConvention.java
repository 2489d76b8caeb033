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
 * Low-cardinality tags, on metrics and spans: {@value #LOCK_NAME} (the lock's name,
 * {@code none} when unnamed), {@value #PHASE} ({@code acquire}, {@code hold}) and, once
 * the phase ended, {@value #OUTCOME} (see {@link LockObservationContext#getOutcome()}).
 * High-cardinality, on spans only: the fencing token ({@value #FENCING_TOKEN}), and the
 * lock key ({@value #LOCK_KEY}) only when created to include it, since keys are data (an
 * order id, a user name) that a trace may not be allowed to carry. No metric is ever
 * tagged with the key.
 * <p>
 * These observations are the only source of lock metrics. With a
 * {@code DefaultMeterObservationHandler} on the registry (as Spring Boot's Actuator sets
 * up), they make:
 * <ul>
 * <li>{@code distlock.lock}, a timer of each phase, tagged {@value #LOCK_NAME},
 * {@value #PHASE}, {@value #OUTCOME} and Micrometer's {@code error};</li>
 * <li>{@code distlock.lock.active}, a long-task timer of the phases going on (locks
 * waited for, locks held), tagged {@value #LOCK_NAME} and {@value #PHASE};</li>
 * <li>{@code distlock.lock.lost}, a counter of the {@link LockObservationContext#LOST
 * locks found lost}, tagged {@value #LOCK_NAME} and {@value #PHASE} ({@code hold}).</li>
 * </ul>
 */
public class DefaultLockObservationConvention implements LockObservationConvention {

	/**
	 * The name of lock observations, and of the timers made from them.
	 */
	public static final String NAME = "distlock.lock";

	/**
	 * The tag of the lock's name.
	 */
	public static final String LOCK_NAME = "distlock.lock.name";

	/**
	 * The tag of the phase observed.
	 */
	public static final String PHASE = "distlock.lock.phase";

	/**
	 * The tag of how the phase ended.
	 */
	public static final String OUTCOME = "distlock.lock.outcome";

	/**
	 * The span tag of the fencing token.
	 */
	public static final String FENCING_TOKEN = "distlock.fencing.token";

	/**
	 * The span tag of the lock key, when included.
	 */
	public static final String LOCK_KEY = "distlock.lock.key";

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
		KeyValues values = KeyValues.of(
				KeyValue.of(LOCK_NAME, context.getLockName().isEmpty() ? "none" : context.getLockName()),
				KeyValue.of(PHASE, phase(context)));
		// No outcome while the phase goes on: the long-task timer made at the start has
		// the tags known then, and the timer made at the end always has an outcome.
		String outcome = context.getOutcome();
		return (outcome != null) ? values.and(OUTCOME, outcome) : values;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
		KeyValues values = (context.getFencingToken() >= 0)
				? KeyValues.of(FENCING_TOKEN, String.valueOf(context.getFencingToken())) : KeyValues.empty();
		return this.includeKey ? values.and(LOCK_KEY, context.getKey()) : values;
	}

	private static String phase(LockObservationContext context) {
		return context.getPhase().name().toLowerCase(Locale.ROOT);
	}

}
