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

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * The asynchronous calls of one {@link RedisLockClient}, created once, on first use: each
 * client opens connections of its own, and the factory's Lettuce client only exists once
 * the factory was started.
 */
final class LazyAsyncLockCalls {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			LazyAsyncLockCalls.class.getClassLoader());

	private final LockScriptCalls calls;

	private final LockAcquisitions acquisitions;

	private final StringRedisTemplate redis;

	private volatile @Nullable AsyncLockCalls created;

	LazyAsyncLockCalls(LockScriptCalls calls, LockAcquisitions acquisitions, StringRedisTemplate redis) {
		this.calls = calls;
		this.acquisitions = acquisitions;
		this.redis = redis;
	}

	/**
	 * Return the calls, or {@code null} without Lettuce or for a factory that is no
	 * started Lettuce factory of one standalone Redis.
	 */
	@Nullable AsyncLockCalls get() {
		AsyncLockCalls calls = this.created;
		if (calls == null && LETTUCE_PRESENT) {
			synchronized (this) {
				calls = this.created;
				if (calls == null) {
					calls = AsyncLockCalls.of(this.calls, this.acquisitions, this.redis.getConnectionFactory());
					this.created = calls;
				}
			}
		}
		return calls;
	}

}
