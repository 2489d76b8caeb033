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

import java.time.Duration;

import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;

/**
 * How one acquisition holds its key in the store, with the calls that take it, release it
 * and name its lease: the exclusive (or write) lock, a read hold, or one of a number of
 * permits. Decided once per request, from its mode and permits, and refused when the
 * store lacks the capability.
 */
final class LockKind {

	private final LockClient client;

	private final LockMode mode;

	private final int permits;

	private LockKind(LockClient client, LockMode mode, int permits) {
		this.client = client;
		this.mode = mode;
		this.permits = permits;
	}

	/**
	 * Return the kind of lock the request asks for.
	 * @param request what to lock and how
	 * @param client the lock store
	 * @return the kind
	 * @throws IllegalArgumentException if the store cannot hold the key that way
	 */
	static LockKind of(LockRequest request, LockClient client) {
		if (request.permits() > 1 && !(client instanceof PermitLockClient)) {
			throw new IllegalArgumentException("Lock '" + request.key() + "' was requested with " + request.permits()
					+ " permits, but the lock store " + client.getClass().getName()
					+ " cannot hand out permits (it is no PermitLockClient)");
		}
		if (request.mode() == LockMode.READ && !(client instanceof ReadWriteLockClient)) {
			throw new IllegalArgumentException(
					"Lock '" + request.key() + "' was requested for READ, but the lock store "
							+ client.getClass().getName() + " cannot take read locks (it is no ReadWriteLockClient)");
		}
		return new LockKind(client, request.mode(), request.permits());
	}

	/**
	 * Return the exclusive lock of the given store.
	 * @param client the lock store
	 * @return the kind
	 */
	static LockKind exclusive(LockClient client) {
		return new LockKind(client, LockMode.EXCLUSIVE, 1);
	}

	LockMode mode() {
		return this.mode;
	}

	int permits() {
		return this.permits;
	}

	boolean isRead() {
		return this.mode == LockMode.READ;
	}

	boolean isPermit() {
		return this.permits > 1;
	}

	/**
	 * Try once to take the key this way.
	 * @param waits whether the caller waits if the key is busy: one that does not is not
	 * announced to the holder
	 */
	AcquireResult tryAcquire(String resource, String ownerToken, Duration ttl, boolean waits) {
		if (isPermit()) {
			return ((PermitLockClient) this.client).tryAcquirePermit(resource, ownerToken, ttl, this.permits);
		}
		if (isRead()) {
			ReadWriteLockClient client = (ReadWriteLockClient) this.client;
			return waits ? client.tryAcquireRead(resource, ownerToken, ttl)
					: client.tryAcquireReadOnce(resource, ownerToken, ttl);
		}
		return waits ? this.client.tryAcquire(resource, ownerToken, ttl)
				: this.client.tryAcquireOnce(resource, ownerToken, ttl);
	}

	/**
	 * Release what the given owner holds this way, owner-checked.
	 */
	boolean release(String resource, String ownerToken) {
		if (isPermit()) {
			return ((PermitLockClient) this.client).releasePermit(resource, ownerToken);
		}
		if (isRead()) {
			return ((ReadWriteLockClient) this.client).releaseRead(resource, ownerToken);
		}
		return this.client.release(resource, ownerToken);
	}

	/**
	 * Return the name under which the store renews and checks the lease of this kind of
	 * hold: the resource name, or the permits' lease key.
	 */
	String leaseKey(String resource) {
		return isPermit() ? ((PermitLockClient) this.client).permitLeaseKey(resource) : resource;
	}

	/**
	 * Tell whether a thread that holds a key this way may run nested code that asks for
	 * it the other way without taking it again: a writer may read, and anything may ask
	 * for what it already has.
	 */
	boolean covers(LockRequest request) {
		if (isPermit() || request.permits() > 1) {
			return this.permits == request.permits();
		}
		return !isRead() || request.mode() == LockMode.READ;
	}

	/**
	 * Describe the kind for messages and the locks endpoint.
	 */
	String describe() {
		return describe(this.mode, this.permits);
	}

	/**
	 * Describe the kind a request asks for, as {@link #describe()} does.
	 */
	static String describe(LockRequest request) {
		return describe(request.mode(), request.permits());
	}

	private static String describe(LockMode mode, int permits) {
		return (permits > 1) ? "one of " + permits + " permits" : mode.name();
	}

	@Override
	public String toString() {
		return describe();
	}

}
