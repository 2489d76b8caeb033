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

import io.distlock.core.AcquireResult;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * The permits of {@link RedisLockClient}: a sorted set per lock resource, at
 * {@link RedisLockKeys#permits()}, of the holders' owner tokens scored by when each lease
 * expires. Renewal goes through {@link RenewalBatches}, with the other leases.
 */
final class RedisPermits {

	private final StringRedisTemplate redis;

	RedisPermits(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Take a permit and, when replicas must acknowledge, give it back if they did not in
	 * time.
	 */
	AcquireResult tryAcquire(String key, String ownerToken, Duration ttl, int permits, String fencingCounterRetention,
			ReplicaAcknowledgement acknowledgement, String publishCommand) {
		Assert.isTrue(permits >= 1, () -> "'permits' must be at least 1, but was " + permits);
		RedisLockKeys keys = RedisLockKeys.of(key);
		return acknowledgement.acquire(this.redis, key, "acquire a permit of", LockScripts.ACQUIRE_PERMIT,
				List.of(keys.permits(), keys.fence()), () -> release(key, ownerToken, publishCommand), ownerToken,
				RedisCalls.millis(ttl), fencingCounterRetention, String.valueOf(permits));
	}

	/**
	 * Give back the owner's permit and publish the release, tried again for a while
	 * during a slot migration as {@link RedisLockClient#release} is.
	 */
	boolean release(String key, String ownerToken, String publishCommand) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long released = SlotMigrationRetry
			.call(() -> RedisCalls.call(key, "release a permit of", () -> LockScripts.RELEASE_PERMIT.run(this.redis,
					List.of(keys.permits()), ownerToken, keys.channel(), key, publishCommand)));
		return RedisCalls.reply(released, "release-permit") == 1L;
	}

	/**
	 * Tell whether the owner's permit lease has not expired, by the Redis clock.
	 */
	boolean isHeld(String key, String ownerToken) {
		String permits = RedisLockKeys.of(key).permits();
		Long held = RedisCalls.call(key, "check a permit of",
				() -> LockScripts.PERMIT_HELD.run(this.redis, List.of(permits), ownerToken));
		return RedisCalls.reply(held, "permit-held") == 1L;
	}

}
