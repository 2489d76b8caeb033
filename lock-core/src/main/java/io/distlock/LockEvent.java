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

import org.springframework.util.Assert;

/**
 * What happened to a lock, as a {@link LockListener} is told: one record per kind of
 * event, each carrying the lock's key and name.
 *
 * <p>
 * The key is data (an order id, a user name) and unbounded; the name is chosen by the
 * code, so it is the one to use as a metric tag. These are plain values handed to
 * listeners, not Spring application events: the one lock event that Spring Boot publishes
 * to {@code @EventListener} methods is {@link LockLostEvent}, made from a {@link Lost}.
 *
 * @see LockListener
 */
public sealed interface LockEvent permits LockEvent.Acquired, LockEvent.NotAcquired, LockEvent.Released,
		LockEvent.ReleaseMismatch, LockEvent.ReleaseFailed, LockEvent.Lost {

	/**
	 * Return the lock key.
	 * @return the key, without the key prefix
	 */
	String key();

	/**
	 * Return the lock's name, which a listener may use as a bounded tag.
	 * @return the name, empty when unnamed
	 */
	String name();

	/**
	 * A lock was acquired.
	 *
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition
	 * @param waited how long the caller waited for it
	 * @see LockListener#onAcquired(Acquired)
	 */
	record Acquired(String key, String name, long fencingToken, Duration waited) implements LockEvent {

		public Acquired {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(name, "'name' must not be null");
			Assert.notNull(waited, "'waited' must not be null");
		}

	}

	/**
	 * A lock stayed busy for the whole wait time. For several keys taken together, the
	 * key is the one that stayed busy.
	 *
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param waited how long the caller waited
	 * @see LockListener#onNotAcquired(NotAcquired)
	 */
	record NotAcquired(String key, String name, Duration waited) implements LockEvent {

		public NotAcquired {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(name, "'name' must not be null");
			Assert.notNull(waited, "'waited' must not be null");
		}

	}

	/**
	 * A lock was released by its owner.
	 *
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition released
	 * @param held how long it was held
	 * @see LockListener#onReleased(Released)
	 */
	record Released(String key, String name, long fencingToken, Duration held) implements LockEvent {

		public Released {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(name, "'name' must not be null");
			Assert.notNull(held, "'held' must not be null");
		}

	}

	/**
	 * A release found the lock no longer held by its owner: the lease had expired (or the
	 * lock was {@link Lost found lost} before) and the lock may already belong to someone
	 * else, whose lock was left in place.
	 *
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition that had ended
	 * @param held how long the owner believed it held the lock
	 * @see LockListener#onReleaseMismatch(ReleaseMismatch)
	 */
	record ReleaseMismatch(String key, String name, long fencingToken, Duration held) implements LockEvent {

		public ReleaseMismatch {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(name, "'name' must not be null");
			Assert.notNull(held, "'held' must not be null");
		}

	}

	/**
	 * A release failed (Redis could not be reached): the lock may still be held until its
	 * lease runs out, but its owner is done with it and no longer renews it.
	 *
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the acquisition
	 * @param held how long the owner held the lock
	 * @param failure what the release threw
	 * @see LockListener#onReleaseFailed(ReleaseFailed)
	 */
	record ReleaseFailed(String key, String name, long fencingToken, Duration held,
			Throwable failure) implements LockEvent {

		public ReleaseFailed {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(name, "'name' must not be null");
			Assert.notNull(held, "'held' must not be null");
			Assert.notNull(failure, "'failure' must not be null");
		}

	}

	/**
	 * A held lock was found lost while its owner still used it (the lease ran out, the
	 * key was removed, or renewal stopped because its holder thread ended or the maximum
	 * hold time passed), so the owner's work is no longer protected. A listener may, for
	 * example, interrupt the holder thread to stop that work.
	 *
	 * <p>
	 * This is the value a {@link LockListener} gets; Spring Boot's auto-configuration
	 * turns each one into a {@link LockLostEvent}, the {@code ApplicationEvent} for
	 * {@code @EventListener} methods. Both are told after the loss took effect: the
	 * lock's {@link LockHandle#whenLost()} completed first.
	 *
	 * @param key the lock key
	 * @param name the lock's name, empty when unnamed
	 * @param fencingToken the fencing token of the lost acquisition
	 * @param holder the thread that acquired the lock
	 * @see LockListener#onLost(Lost)
	 */
	record Lost(String key, String name, long fencingToken, Thread holder) implements LockEvent {

		public Lost {
			Assert.notNull(key, "'key' must not be null");
			Assert.notNull(name, "'name' must not be null");
			Assert.notNull(holder, "'holder' must not be null");
		}

	}

}
