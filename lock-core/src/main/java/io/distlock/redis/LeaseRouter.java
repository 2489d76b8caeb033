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

package io.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;

import io.distlock.store.Renewal;

/**
 * The calls of a {@link RedisLockClient} on a lease key: a key that names a resource's
 * permits ({@link RedisLockKeys#permits()}) stands for a permit of that resource, any
 * other key for its lock or read hold. A permit is released and renewed through the
 * client's own {@link RedisLockClient#releasePermit releasePermit} and
 * {@link RedisLockClient#renewAll renewAll}, as a subclass may override them.
 */
final class LeaseRouter {

	private final RedisLeases leases;

	private final BiPredicate<String, String> releasePermit;

	private final Function<List<Renewal>, boolean[]> renewAll;

	/**
	 * Create a router over the given leases.
	 * @param leases the calls on one lease
	 * @param releasePermit releases the permit of a resource and owner
	 * @param renewAll renews leases in batches
	 */
	LeaseRouter(RedisLeases leases, BiPredicate<String, String> releasePermit,
			Function<List<Renewal>, boolean[]> renewAll) {
		this.leases = leases;
		this.releasePermit = releasePermit;
		this.renewAll = renewAll;
	}

	/**
	 * Release the permit, the lock or the read hold that the key names.
	 */
	boolean release(String key, String ownerToken) {
		String permitsOf = RedisLockKeys.resourceOfPermits(key);
		if (permitsOf != null) {
			return this.releasePermit.test(permitsOf, ownerToken);
		}
		return this.leases.release(key, ownerToken);
	}

	/**
	 * Renew the permit, the lock or the read hold that the key names.
	 */
	boolean renew(String key, String ownerToken, Duration ttl) {
		if (RedisLockKeys.resourceOfPermits(key) != null) {
			return this.renewAll.apply(List.of(new Renewal(key, ownerToken, ttl)))[0];
		}
		return this.leases.renew(key, ownerToken, ttl);
	}

	/**
	 * Check the permit, the lock or the read hold that the key names.
	 */
	boolean isHeld(String key, String ownerToken) {
		String permitsOf = RedisLockKeys.resourceOfPermits(key);
		if (permitsOf != null) {
			return this.leases.isPermitHeld(permitsOf, ownerToken);
		}
		return this.leases.isHeld(key, ownerToken);
	}

}
