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

import org.springframework.context.ApplicationEvent;

/**
 * Published when a held lock was found lost while its owner still worked under it: the
 * lease ran out (for example during a long pause) or the key was removed. The owner's
 * work is no longer protected; writes guarded by the lock's fencing token will be
 * rejected by a storage that checks it.
 *
 * <p>
 * Published on a listener thread of the lease renewer, after the loss took effect: the
 * lock's {@link LockHandle#whenLost()} completed, its {@link LockHandle#isHeld()} answers
 * {@code false} and a leadership on it is revoked before any listener runs, and no
 * listener can delay that. Listeners share two threads with those of other lost locks:
 * they should be quick, or hand the work off. A lock released by someone other than its
 * work (cancellation, shutdown) publishes no event: its {@code whenLost()} completes.
 * <p>
 * This is the Spring {@code ApplicationEvent} for {@code @EventListener} methods,
 * published by Spring Boot's auto-configuration; a {@link LockListener} is told the same
 * loss as a {@link LockEvent.Lost} value, which works without an application context.
 *
 * @see LockEvent.Lost
 */
public class LockLostEvent extends ApplicationEvent {

	private final String key;

	private final String name;

	private final long fencingToken;

	private final transient Thread holder;

	/**
	 * Create a new event of the given loss, as a {@link LockListener} was told of it.
	 * @param source the component that detected the loss
	 * @param lost the lost lock
	 */
	public LockLostEvent(Object source, LockEvent.Lost lost) {
		super(source);
		this.key = lost.key();
		this.name = lost.name();
		this.fencingToken = lost.fencingToken();
		this.holder = lost.holder();
	}

	/**
	 * Return the key of the lost lock.
	 * @return the lock key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Return the name of the lost lock.
	 * @return the lock's name, empty when unnamed
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the fencing token of the lost acquisition.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Return the thread that acquired the lock, for example to interrupt its work.
	 * @return the holder thread
	 */
	public Thread getHolder() {
		return this.holder;
	}

	@Override
	public String toString() {
		return "LockLostEvent[key='" + this.key + "', name='" + this.name + "', fencingToken=" + this.fencingToken
				+ ", holder=" + this.holder.getName() + "]";
	}

}
