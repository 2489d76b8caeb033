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

/**
 * How a lock is held: alone, or shared with other readers.
 *
 * <p>
 * {@link #EXCLUSIVE} and {@link #WRITE} are the same lock on the same key: one holder at
 * a time, with a fencing token. {@link #READ} holders share the key with each other and
 * exclude its exclusive and write holders; a writer that waits keeps new readers out, so
 * that a stream of readers cannot starve it.
 *
 * @see io.distlock.annotation.DistributedLocked#mode()
 * @see io.distlock.LockRequest#withMode(LockMode)
 */
public enum LockMode {

	/**
	 * One holder at a time: the plain lock, and the default.
	 */
	EXCLUSIVE,

	/**
	 * Shared with other readers of the key, excluded by its writers and exclusive
	 * holders. Each read hold is a lease of its own, renewed while held.
	 */
	READ,

	/**
	 * The write lock of a read/write key: the same lock as {@link #EXCLUSIVE}, which also
	 * waits until the key's readers are gone.
	 */
	WRITE

}
