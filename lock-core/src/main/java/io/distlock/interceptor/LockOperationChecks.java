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

package io.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.annotation.DistributedLocked;

/**
 * The checks of {@link LockOperationParser} that the attributes of one
 * {@link DistributedLocked} go together, with each other and with what the method
 * returns.
 */
final class LockOperationChecks {

	private LockOperationChecks() {
	}

	/**
	 * Check that a {@code minHold} can be kept: within the ttl unless renewed, on one key
	 * and on a method that is not reactive.
	 */
	static void checkMinHold(DistributedLocked locked, Method method, Duration minHold, Duration ttl,
			List<KeyExpression> keys, MethodShape shape) {
		if (minHold.isZero()) {
			return;
		}
		if (!locked.autoRenew() && minHold.compareTo(ttl) > 0) {
			throw LockOperationParser.invalid(method, "minHold",
					"minHold '" + locked.minHold() + "' is longer than the ttl of " + ttl.toMillis()
							+ "ms without autoRenew: the lease would run out before it; raise the ttl, or "
							+ "renew the lease");
		}
		if (!keys.isEmpty()) {
			throw LockOperationParser.invalid(method, "minHold", "minHold '" + locked.minHold()
					+ "' cannot be combined with keys: it holds one lock longer; remove one of them");
		}
		if (shape.reactive()) {
			throw LockOperationParser.invalid(method, "minHold",
					"minHold '" + locked.minHold() + "' is not available on a reactive or suspend method");
		}
	}

	/**
	 * Describe why a renewed lease of the given ttl is refused: shorter than
	 * {@link LockRequest#MIN_RENEWED_TTL}, and for a number without a unit, that it was
	 * read as milliseconds.
	 * @param value the {@code ttl} attribute as written, empty for the default
	 * @param resolved the attribute with its placeholders resolved
	 * @param ttl the parsed ttl
	 * @return the problem, for an {@link InvalidLockOperationException}
	 */
	static String renewedTtlTooShort(String value, @Nullable String resolved, Duration ttl) {
		String minimum = LockRequest.MIN_RENEWED_TTL.toMillis() + "ms";
		String why = ", since the lease is renewed every third of its ttl and a renewal later than the other two "
				+ "thirds loses the lock while the method still runs, and another caller takes the key; use a ttl "
				+ "of at least " + minimum + ", or autoRenew = false for a lease held for its ttl at most";
		if (value.isEmpty()) {
			return "ttl (empty, so the default of " + ttl.toMillis() + "ms) is too short for a lease that is "
					+ "renewed: it must be at least " + minimum + why;
		}
		String shown = value.equals(resolved) ? "'" + value + "'" : "'" + value + "' (resolved to '" + resolved + "')";
		String stripped = (resolved != null) ? resolved.strip() : "";
		if (!stripped.isEmpty() && stripped.chars().allMatch(Character::isDigit)) {
			return "ttl " + shown + " is read as " + stripped + "ms (a number without a unit is milliseconds); "
					+ "write \"" + stripped + "s\" if " + stripped + " seconds were meant. That is too short for a "
					+ "lease that is renewed: it must be at least " + minimum + why;
		}
		return "ttl " + shown + " is too short for a lease that is renewed: it must be at least " + minimum + why;
	}

	/**
	 * Check that the mode, permits and keys go together, with each other and with the
	 * method's shape.
	 */
	static void checkKind(DistributedLocked locked, Method method, List<KeyExpression> keys, MethodShape shape) {
		int permits = locked.permits();
		LockMode mode = locked.mode();
		if (permits < 1) {
			throw LockOperationParser.invalid(method, "permits", "permits = " + permits
					+ " must be at least 1 (1 is the plain exclusive lock, more a concurrency limit)");
		}
		if (permits > 1 && mode != LockMode.EXCLUSIVE) {
			throw LockOperationParser.invalid(method, "permits",
					"permits = " + permits + " cannot be combined with mode = " + mode
							+ ": a concurrency limit is neither a read nor a write lock; remove one of them");
		}
		if (permits > 1 && locked.fair()) {
			throw LockOperationParser.invalid(method, "permits", "permits = " + permits
					+ " cannot be combined with fair = true: permits are not handed out in arrival order");
		}
		if (mode == LockMode.READ && locked.fair()) {
			throw LockOperationParser.invalid(method, "fair",
					"fair = true cannot be combined with mode = READ: only the write lock queues in arrival order");
		}
		if (!keys.isEmpty() && locked.fair()) {
			throw LockOperationParser.invalid(method, "keys",
					"keys cannot be combined with fair = true: several keys are not "
							+ "taken in arrival order; remove fair = true");
		}
		if (!keys.isEmpty() && permits > 1) {
			throw LockOperationParser.invalid(method, "keys", "keys cannot be combined with permits = " + permits
					+ ": a concurrency limit is one key; remove one of them");
		}
		boolean reactive = shape.reactive();
		if (!keys.isEmpty() && shape != MethodShape.BLOCKING) {
			throw LockOperationParser.invalid(method, "keys", "keys is not available on a method returning "
					+ method.getReturnType().getSimpleName() + " or a suspend function: several keys are held "
					+ "until the method returns only; lock them with LockTemplate.executeAll inside the work instead");
		}
		if (reactive && mode == LockMode.READ) {
			throw LockOperationParser.invalid(method, "mode",
					"mode = READ is not available on a reactive or suspend method: reactive "
							+ "locks are exclusive (or write) locks");
		}
		if (reactive && permits > 1) {
			throw LockOperationParser.invalid(method, "permits", "permits = " + permits
					+ " is not available on a reactive or suspend method: reactive locks are exclusive locks");
		}
	}

}
