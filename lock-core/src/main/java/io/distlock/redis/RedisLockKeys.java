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

/**
 * The Redis names used for one lock resource, all in one hash slot so that every script
 * runs unchanged on Redis Cluster.
 *
 * <p>
 * The lock key is the resource name itself whenever possible, so a lock is easy to find
 * with {@code redis-cli}. The other names share its hash slot through a hash tag: the
 * resource's own tag if it has one, otherwise the resource wrapped in braces. Release
 * channels all start with {@link #CHANNEL_PREFIX}, so that one pattern subscription
 * ({@link #CHANNEL_PATTERN}) hears the releases of every lock and nothing else.
 *
 * @param lock the key holding the owner token while the lock is held
 * @param fence the fencing counter
 * @param queue the list of fair waiters' owner tokens, in arrival order
 * @param queueTimeouts the sorted set of the same tokens, scored by when each waiter's
 * place expires
 * @param channel the channel a release is published on
 */
record RedisLockKeys(String lock, String fence, String queue, String queueTimeouts, String channel) {

	/**
	 * The start of every release channel name.
	 */
	static final String CHANNEL_PREFIX = "distlock:released:";

	/**
	 * The pattern matching the release channel of every lock.
	 */
	static final String CHANNEL_PATTERN = CHANNEL_PREFIX + "*";

	static RedisLockKeys of(String resource) {
		String base;
		String lock = resource;
		if (hasHashTag(resource)) {
			base = resource;
		}
		else if (resource.indexOf('}') < 0) {
			base = "{" + resource + "}";
		}
		else {
			// A '}' without a valid tag before it ("a}b", "{}x") cannot be wrapped in a
			// tag that hashes like the bare name, so the lock key gets a tag of its own.
			base = "{" + Integer.toHexString(resource.hashCode()) + "}" + resource;
			lock = base;
		}
		// The prefix holds no brace, so the channel's hash tag is still the base's.
		return new RedisLockKeys(lock, base + ":fence", base + ":queue", base + ":queue-timeouts",
				CHANNEL_PREFIX + base);
	}

	/**
	 * Tell whether Redis would hash only part of the key: the part between its first '{'
	 * and the first '}' after it, when that part is not empty.
	 */
	private static boolean hasHashTag(String key) {
		int open = key.indexOf('{');
		return open >= 0 && key.indexOf('}', open + 1) > open + 1;
	}

}
