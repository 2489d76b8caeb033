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

package io.distlock.fencing;

import io.distlock.DistributedLockException;

/**
 * Thrown when a write carries a fencing token lower than one the storage has already
 * recorded for the same resource: a later holder of the lock has written since, so this
 * holder's lease ran out while it worked (a pause, a partition) and its write must not
 * land. Unchecked, so that the surrounding transaction rolls back.
 */
public class FencingTokenRejectedException extends DistributedLockException {

	private final long fencingToken;

	private final long recordedToken;

	/**
	 * Create a new exception for a stale token.
	 * @param resource the resource written to
	 * @param fencingToken the token of the write refused
	 * @param recordedToken the higher token recorded for the resource
	 */
	public FencingTokenRejectedException(String resource, long fencingToken, long recordedToken) {
		super(resource, "Fencing token " + fencingToken + " for '" + resource + "' is stale: token " + recordedToken
				+ " was already recorded, so a later holder of the lock has written since (this holder's lease ran "
				+ "out while it worked: a pause, a partition). The write is refused; let its transaction roll back",
				null);
		this.fencingToken = fencingToken;
		this.recordedToken = recordedToken;
	}

	/**
	 * Return the resource written to.
	 * @return the resource, the lock key by default
	 */
	public String getResource() {
		return getKey();
	}

	/**
	 * Return the token of the write refused.
	 * @return the stale token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Return the higher token already recorded for the resource.
	 * @return the recorded token
	 */
	public long getRecordedToken() {
		return this.recordedToken;
	}

}
