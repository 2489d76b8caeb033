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

package io.distlock.store;

/**
 * A {@link LockClient} that can also tell an operator about a lock and remove it whoever
 * holds it: the capability behind {@code LockTemplate.inspect} and
 * {@code LockTemplate.forceRelease}, and the Actuator endpoint built on them.
 *
 * <p>
 * Neither call needs the holder's owner token, and neither reveals it: inspection names
 * the holder only by a digest. Keys are complete resource names, as everywhere in the
 * SPI.
 *
 * @see LockState
 * @see LockClient
 */
public interface InspectableLockClient extends LockClient {

	/**
	 * Tell what the store knows of the lock right now, without changing anything: the
	 * exclusive lock and, for a store that has them, how many read holds and permits the
	 * key has.
	 * @param key the resource name
	 * @return the lock's state
	 */
	LockState inspect(String key);

	/**
	 * Remove the lock whoever holds it, without checking the owner, and publish the
	 * release so that waiters wake up as after an ordinary release. The fencing counter
	 * is kept, so the next holder's token is greater than the removed holder's; fair
	 * waiters keep their places and get the lock in order.
	 * <p>
	 * A store that is also a {@link ReadWriteLockClient} removes the key's read holds
	 * too, and the mark of a writer waiting for them, so that both readers and writers
	 * can take the key again at once; a store that is also a {@link PermitLockClient}
	 * removes every permit of the key. The whole key is free afterwards.
	 * <p>
	 * This breaks mutual exclusion on purpose: the removed holders may still be working,
	 * and learn of the loss only when they next renew, check or release their hold.
	 * @param key the resource name
	 * @return {@code true} if a lock, a read hold or a permit was removed, {@code false}
	 * if the key was not held in any way
	 */
	boolean forceRelease(String key);

}
