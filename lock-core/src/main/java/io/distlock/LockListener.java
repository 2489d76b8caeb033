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
import java.util.List;

/**
 * Callback for what happens to locks, for metrics and diagnostics. Every method has an
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
 * @see LockStatistics
 */
public interface LockListener {

	/**
	 * A lock was acquired.
	 * @param key the lock key
	 * @param fencingToken the fencing token of the acquisition
	 * @param waited how long the caller waited for it
	 */
	default void onAcquired(String key, long fencingToken, Duration waited) {
	}

	/**
	 * A lock stayed busy for the whole wait time.
	 * @param key the lock key
	 * @param waited how long the caller waited
	 */
	default void onNotAcquired(String key, Duration waited) {
	}

	/**
	 * A lock was released by its owner.
	 * @param key the lock key
	 * @param held how long it was held
	 */
	default void onReleased(String key, Duration held) {
	}

	/**
	 * A release found the lock no longer held by its owner: the lease had expired (or the
	 * lock was {@link #onLost found lost} before) and the lock may already belong to
	 * someone else, whose lock was left in place.
	 * @param key the lock key
	 * @param held how long the owner believed it held the lock
	 */
	default void onReleaseMismatch(String key, Duration held) {
	}

	/**
	 * A release failed (Redis could not be reached): the lock may still be held until its
	 * lease runs out, but its owner is done with it and no longer renews it.
	 * @param key the lock key
	 * @param held how long the owner held the lock
	 * @param failure what the release threw
	 */
	default void onReleaseFailed(String key, Duration held, Throwable failure) {
	}

	/**
	 * A held lock was found lost while its owner still used it (the lease ran out, the
	 * key was removed, or renewal stopped because its holder thread ended or the maximum
	 * hold time passed), so the owner's work is no longer protected. A listener may, for
	 * example, interrupt the holder thread to stop that work.
	 * @param key the lock key
	 * @param fencingToken the fencing token of the lost acquisition
	 * @param holder the thread that acquired the lock
	 */
	default void onLost(String key, long fencingToken, Thread holder) {
	}

	/**
	 * A lock was acquired: as {@link #onAcquired(String, long, Duration)}, with the
	 * lock's name, which a listener may use as a bounded tag. The template calls this
	 * one; by default it calls the one without the name.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition
	 * @param waited how long the caller waited for it
	 */
	default void onAcquired(String key, String name, long fencingToken, Duration waited) {
		onAcquired(key, fencingToken, waited);
	}

	/**
	 * A lock stayed busy: as {@link #onNotAcquired(String, Duration)}, with the lock's
	 * name.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param waited how long the caller waited
	 */
	default void onNotAcquired(String key, String name, Duration waited) {
		onNotAcquired(key, waited);
	}

	/**
	 * A lock was released: as {@link #onReleased(String, Duration)}, with the lock's
	 * name.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param held how long it was held
	 */
	default void onReleased(String key, String name, Duration held) {
		onReleased(key, held);
	}

	/**
	 * A release found the lock no longer held: as
	 * {@link #onReleaseMismatch(String, Duration)}, with the lock's name.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param held how long the owner believed it held the lock
	 */
	default void onReleaseMismatch(String key, String name, Duration held) {
		onReleaseMismatch(key, held);
	}

	/**
	 * A release failed: as {@link #onReleaseFailed(String, Duration, Throwable)}, with
	 * the lock's name.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param held how long the owner held the lock
	 * @param failure what the release threw
	 */
	default void onReleaseFailed(String key, String name, Duration held, Throwable failure) {
		onReleaseFailed(key, held, failure);
	}

	/**
	 * A held lock was found lost: as {@link #onLost(String, long, Thread)}, with the
	 * lock's name.
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the lost acquisition
	 * @param holder the thread that acquired the lock
	 */
	default void onLost(String key, String name, long fencingToken, Thread holder) {
		onLost(key, fencingToken, holder);
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
