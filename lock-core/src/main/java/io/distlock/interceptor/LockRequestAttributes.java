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

import java.time.Duration;
import java.util.List;

import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.MultiLockRequest;

import org.springframework.util.Assert;

/**
 * The settings a {@link LockOperation} locks with, turned into the request of each call
 * in this one place.
 *
 * @param ttl the lease time
 * @param waitTime how long to wait for a busy lock
 * @param minHold how long the lock stays held at least, zero for none
 * @param autoRenew whether the lease is renewed while the method runs
 * @param fair whether waiters get the lock in arrival order
 * @param mode how the key is held
 * @param permits how many callers may hold the key at once
 * @param lockName the name in metrics, traces and the {@code locks} endpoint
 */
record LockRequestAttributes(Duration ttl, Duration waitTime, Duration minHold, boolean autoRenew, boolean fair,
		LockMode mode, int permits, String lockName) {

	LockRequestAttributes {
		Assert.notNull(ttl, "'ttl' must not be null");
		Assert.notNull(waitTime, "'waitTime' must not be null");
		Assert.notNull(lockName, "'lockName' must not be null");
	}

	/**
	 * Return the request for one call of a method that locks one key, validated once.
	 * @param lockKey the lock key
	 * @return the request
	 * @throws IllegalArgumentException if the key is not a valid lock key
	 */
	LockRequest toRequest(String lockKey) {
		return LockRequest.builder(lockKey)
			.ttl(this.ttl)
			.waitTime(this.waitTime)
			.autoRenew(this.autoRenew)
			.fair(this.fair)
			.name(this.lockName)
			.mode(this.mode)
			.permits(this.permits)
			.minHold(this.minHold)
			.build();
	}

	/**
	 * Return the request for one call of a method that locks several keys.
	 * @param lockKeys the lock keys
	 * @return the request
	 * @throws IllegalArgumentException if a key is not a valid lock key, or there are
	 * none or too many
	 */
	MultiLockRequest toMultiLockRequest(List<String> lockKeys) {
		return new MultiLockRequest(lockKeys, this.ttl, this.waitTime, this.autoRenew, this.mode, this.lockName);
	}

}
