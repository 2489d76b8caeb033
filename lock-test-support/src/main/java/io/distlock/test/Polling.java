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

package io.distlock.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Waits for a condition with short sleeps up to a deadline, never longer.
 */
final class Polling {

	private static final Duration INTERVAL = Duration.ofMillis(50);

	private Polling() {
	}

	/**
	 * Wait until the condition holds; a condition that throws counts as not holding.
	 * @param timeout how long to wait at most
	 * @param what what is waited for, for the failure message
	 * @param condition the condition
	 * @param state describes the current state for the failure message
	 * @throws IllegalStateException if the condition does not hold in time
	 */
	static void await(Duration timeout, String what, BooleanSupplier condition, Supplier<String> state) {
		long deadline = System.nanoTime() + timeout.toNanos();
		RuntimeException lastFailure = null;
		while (true) {
			try {
				if (condition.getAsBoolean()) {
					return;
				}
			}
			catch (RuntimeException ex) {
				lastFailure = ex;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						"Timed out after " + timeout.toMillis() + " ms waiting for " + what + "; " + describe(state),
						lastFailure);
			}
			sleep(INTERVAL);
		}
	}

	private static String describe(Supplier<String> state) {
		try {
			return state.get();
		}
		catch (RuntimeException ex) {
			return "(could not describe the state: " + ex + ")";
		}
	}

	static void sleep(Duration duration) {
		sleep(duration, "waiting");
	}

	/**
	 * Sleep for the given time; if interrupted, keep the interrupt and fail with
	 * {@code "Interrupted while " + what}.
	 */
	static void sleep(Duration duration, String what) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while " + what, ex);
		}
	}

	static @Nullable String field(@Nullable Object info, String name) {
		if (!(info instanceof String text)) {
			return null;
		}
		for (String line : text.split("\r\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1);
			}
		}
		return null;
	}

}
