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

import java.util.List;

/**
 * Callback for what happens to locks, for metrics and diagnostics: one method per
 * {@link LockEvent kind of event}, each given the event's record. Every method has an
 * empty default, so an implementation overrides only what it needs.
 *
 * <p>
 * Every {@link #onAcquired acquisition} is followed by exactly one of
 * {@link #onReleased}, {@link #onReleaseMismatch} and {@link #onReleaseFailed}, when its
 * handle is closed; {@link #onLost} may come in between.
 * <p>
 * Callbacks run on the thread that caused the event, except {@link #onLost}, which runs
 * on one of two listener threads of the lease renewer's ({@code distlock-lock-listener})
 * after the loss took effect: the lock's {@link LockHandle#whenLost()} completed and its
 * {@link LockHandle#isHeld()} answers {@code false} first, and a slow listener delays
 * neither, for any lock. Listeners should still be fast (a blocking one holds up the
 * {@code onLost} of other locks) and must not throw. An exception thrown by a listener is
 * logged and otherwise ignored.
 *
 * @see LockEvent
 * @see LockStatistics
 */
public interface LockListener {

	/**
	 * A lock was acquired.
	 * @param event the lock, its fencing token and how long the caller waited
	 */
	default void onAcquired(LockEvent.Acquired event) {
	}

	/**
	 * A lock stayed busy for the whole wait time.
	 * @param event the lock and how long the caller waited
	 */
	default void onNotAcquired(LockEvent.NotAcquired event) {
	}

	/**
	 * A lock was released by its owner.
	 * @param event the lock and how long it was held
	 */
	default void onReleased(LockEvent.Released event) {
	}

	/**
	 * A release found the lock no longer held by its owner: the lease had expired (or the
	 * lock was {@link #onLost found lost} before) and the lock may already belong to
	 * someone else, whose lock was left in place.
	 * @param event the lock and how long its owner believed it held it
	 */
	default void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
	}

	/**
	 * A release failed (Redis could not be reached): the lock may still be held until its
	 * lease runs out, but its owner is done with it and no longer renews it.
	 * @param event the lock, how long it was held and what the release threw
	 */
	default void onReleaseFailed(LockEvent.ReleaseFailed event) {
	}

	/**
	 * A held lock was found lost while its owner still used it (the lease ran out, the
	 * key was removed, or renewal stopped because its holder thread ended or the maximum
	 * hold time passed), so the owner's work is no longer protected. A listener may, for
	 * example, interrupt the {@link LockEvent.Lost#holder() holder thread} to stop that
	 * work.
	 * @param event the lock, the fencing token of the lost acquisition and the thread
	 * that acquired it
	 */
	default void onLost(LockEvent.Lost event) {
	}

	/**
	 * Return a listener that tells each of the given listeners in turn; a listener that
	 * throws is logged and neither stops the others nor the lock operation.
	 * @param listeners the listeners to tell
	 * @return the composite listener
	 */
	static LockListener composite(List<? extends LockListener> listeners) {
		return new LockListeners(List.<LockListener>copyOf(listeners));
	}

}
