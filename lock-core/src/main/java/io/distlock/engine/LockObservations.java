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

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.distlock.LockSettings;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationContext;
import io.distlock.observation.LockObservationConvention;

/**
 * Starts and stops the observations of lock phases, for every front door alike: named and
 * tagged by the convention of the {@link LockSettings}.
 */
final class LockObservations {

	private final LockSettings settings;

	private final LockObservationConvention defaultConvention = new DefaultLockObservationConvention();

	LockObservations(LockSettings settings) {
		this.settings = settings;
	}

	/**
	 * Start the observation of waiting for the lock of a key.
	 */
	Observation acquiring(String key, String name) {
		return create(LockObservationContext.Phase.ACQUIRE, key, name).start();
	}

	/**
	 * Start the observation of holding a lock, tagged with its fencing token.
	 */
	Observation holding(String key, String name, long fencingToken) {
		Observation holding = create(LockObservationContext.Phase.HOLD, key, name);
		if (holding.getContext() instanceof LockObservationContext context) {
			context.setFencingToken(fencingToken);
		}
		return holding.start();
	}

	private Observation create(LockObservationContext.Phase phase, String key, String name) {
		return Observation.createNotStarted(this.settings.getObservationConvention(), this.defaultConvention,
				() -> new LockObservationContext(phase, key, name), this.settings.getObservationRegistry());
	}

	/**
	 * Stop an observation with the outcome of its phase.
	 * @param observation the started observation
	 * @param outcome how the phase ended
	 * @param fencingToken the token handed out, or {@code -1} to leave it as it is
	 * @param failure what made it fail, if anything
	 */
	static void stop(Observation observation, String outcome, long fencingToken, @Nullable Throwable failure) {
		if (observation.isNoop()) {
			return;
		}
		if (observation.getContext() instanceof LockObservationContext context) {
			context.setOutcome(outcome);
			if (fencingToken >= 0) {
				context.setFencingToken(fencingToken);
			}
		}
		if (failure != null) {
			observation.error(failure);
		}
		observation.stop();
	}

}
