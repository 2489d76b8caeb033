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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.LockBackendException;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockState;

/**
 * What an operator may do to the lock of a key whoever holds it: ask the store about it,
 * and remove it.
 */
final class LockInspection {

	private static final Log logger = LogFactory.getLog("io.distlock.LockTemplate");

	private final EngineParts parts;

	LockInspection(EngineParts parts) {
		this.parts = parts;
	}

	LockState inspect(String key) {
		InspectableLockClient client = inspectableClient();
		try {
			return client.inspect(this.parts.resource(key));
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(key, ex);
		}
	}

	boolean forceRelease(String key) {
		InspectableLockClient client = inspectableClient();
		String resource = this.parts.resource(key);
		// Work of these settings under the lock hears of it first, not at its next
		// renewal.
		this.parts.heldLocks().releasingUnderWork(this.parts.client(), resource, "by forceRelease (an operator)");
		boolean removed;
		try {
			removed = client.forceRelease(resource);
		}
		catch (LockBackendException ex) {
			throw LockBackendException.forKey(key, ex);
		}
		// Always worth a trace: whoever held the lock may still be working under it.
		logger.warn("Force-released lock '" + key + "': "
				+ (removed ? "a lock was removed, whoever held it" : "no lock was held"));
		return removed;
	}

	private InspectableLockClient inspectableClient() {
		if (this.parts.client() instanceof InspectableLockClient inspectable) {
			return inspectable;
		}
		throw new UnsupportedOperationException("The lock store " + this.parts.client().getClass().getName()
				+ " cannot inspect or force-release locks (it is no InspectableLockClient)");
	}

}
