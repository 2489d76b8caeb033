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

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.util.ConcurrentLruCache;

/**
 * The Redis names used for one lock resource, all in one hash slot so that every script
 * runs unchanged on Redis Cluster.
 *
 * <p>
 * The lock key is the resource name itself ({@code lock:order:42}), so a lock is easy to
 * find with {@code redis-cli}. Every other name is derived as
 * <code>{T}&#x241F;type&#x241F;R</code>: a hash tag <code>T</code>, the separator
 * {@link #SEPARATOR} (U+001F, shown here as &#x241F;), the type ({@code fence},
 * {@code queue}, {@code queue-timeouts}, {@code read-holds}, {@code writer-waiting},
 * {@code waiters}), the separator again and the resource <code>R</code>. The release
 * channel is {@link #CHANNEL_PREFIX} followed by <code>{T}&#x241F;R</code>, so that one
 * pattern subscription ({@link #CHANNEL_PATTERN}) hears the releases of every lock and
 * nothing else. No resource may contain a control character, the separator among them
 * ({@link #of} rejects one, as do the lock request and the key prefix before it).
 *
 * <p>
 * Why no two resources can share a name, whatever their keys: <code>T</code> holds no
 * separator (it is part of <code>R</code>, or made of {@code [0-9a-z]}), and neither do
 * the types or <code>R</code>. So a derived name holds the separator exactly twice, and
 * splitting it there gives back its type and its resource: two different (resource, type)
 * pairs never share a derived name. No lock key holds the separator, so no derived name
 * is any resource's lock key. Likewise a channel, split at its one separator, gives back
 * its resource.
 *
 * <p>
 * Why the names share the lock key's slot: Redis hashes the text between a key's first
 * '{' and the first '}' after it when that text is not empty, otherwise the whole key.
 * <code>T</code> is not empty and holds no '}', so a derived name hashes exactly
 * <code>T</code>, which is what Redis hashes of the lock key: its hash tag when it has
 * one, otherwise the whole resource. A resource without a tag that holds a '}' (such as
 * <code>a}b</code> or <code>{}x</code>) cannot be put in braces; its <code>T</code> is a
 * short string chosen to hash to the same slot.
 *
 * @param lock the key holding the owner token while the lock is held
 * @param fence the fencing counter
 * @param queue the list of fair waiters' owner tokens, in arrival order
 * @param queueTimeouts the sorted set of the same tokens, scored by when each waiter's
 * place expires
 * @param readHolds the sorted set of readers' owner tokens, scored by when each read
 * lease expires
 * @param writerWaiting the marker of a writer waiting for readers, which keeps new
 * readers out
 * @param channel the channel a release is published on
 * @param waiters the announcement of callers that found the lock busy and may wait for
 * it: while it exists, a release is published
 */
record RedisLockKeys(String lock, String fence, String queue, String queueTimeouts, String readHolds,
		String writerWaiting, String channel, String waiters) {

	/**
	 * The start of every release channel name.
	 */
	static final String CHANNEL_PREFIX = "distlock:released:";

	/**
	 * The pattern matching the release channel of every lock.
	 */
	static final String CHANNEL_PATTERN = CHANNEL_PREFIX + "*";

	/**
	 * Separates the parts of a derived name: the ASCII unit separator, a control
	 * character, which lock resources may not contain.
	 */
	static final char SEPARATOR = '\u001f';

	/**
	 * The type of the derived name holding a lock's permits.
	 */
	static final String PERMITS = "permits";

	// The names of the resources used last: a lock's release, renewals and waiters ask
	// for the names its acquisition derived. Bounded, so that many distinct keys cost a
	// derivation each, not memory.
	private static final ConcurrentLruCache<String, RedisLockKeys> NAMES = new ConcurrentLruCache<>(1024,
			RedisLockKeys::derive);

	/**
	 * Return the names of the given lock resource.
	 * @param resource the lock resource: the key prefix followed by the lock key
	 * @return the names
	 * @throws IllegalArgumentException if the resource is empty or holds a control
	 * character
	 */
	static RedisLockKeys of(String resource) {
		if (resource == null) {
			validate(resource);
		}
		return NAMES.get(resource);
	}

	private static RedisLockKeys derive(String resource) {
		validate(resource);
		String tag = "{" + hashTag(resource) + "}";
		return new RedisLockKeys(resource, derived(tag, "fence", resource), derived(tag, "queue", resource),
				derived(tag, "queue-timeouts", resource), derived(tag, "read-holds", resource),
				derived(tag, "writer-waiting", resource), CHANNEL_PREFIX + tag + SEPARATOR + resource,
				derived(tag, "waiters", resource));
	}

	/**
	 * Return the read holds of the given resource alone, without deriving the other
	 * names: for the calls that touch only the lock key and its read holds (renewal).
	 * @param resource the lock resource
	 * @return the name of the sorted set of the resource's read holds
	 * @throws IllegalArgumentException if the resource is empty or holds a control
	 * character
	 */
	static String readHoldsOf(String resource) {
		validate(resource);
		return derived("{" + hashTag(resource) + "}", "read-holds", resource);
	}

	/**
	 * Return the lock key of the given resource alone, without deriving the other names:
	 * for the calls that touch only the lock key (renewal, the holder check).
	 * @param resource the lock resource
	 * @return the lock key, which is the resource itself
	 * @throws IllegalArgumentException if the resource is empty or holds a control
	 * character
	 */
	static String lockKey(String resource) {
		validate(resource);
		return resource;
	}

	/**
	 * Return the resource whose release channel this is, or {@code null} for a channel
	 * that is no release channel: the part after its one separator.
	 */
	static @Nullable String resourceOfChannel(String channel) {
		int separator = channel.indexOf(SEPARATOR);
		return (channel.startsWith(CHANNEL_PREFIX) && separator >= 0) ? channel.substring(separator + 1) : null;
	}

	private static String derived(String tag, String type, String resource) {
		return tag + SEPARATOR + type + SEPARATOR + resource;
	}

	/**
	 * Return text without '}' that Redis hashes to the resource's slot: the part of the
	 * resource that Redis hashes, or a stand-in when that part holds a '}'.
	 */
	private static String hashTag(String resource) {
		int open = resource.indexOf('{');
		int close = (open >= 0) ? resource.indexOf('}', open + 1) : -1;
		if (close > open + 1) {
			return resource.substring(open + 1, close);
		}
		if (resource.indexOf('}') < 0) {
			return resource;
		}
		return SlotTags.TAGS[ClusterSlotHashUtil.calculateSlot(resource.getBytes(StandardCharsets.UTF_8))];
	}

	private static void validate(String resource) {
		if (resource == null || resource.isEmpty()) {
			throw new IllegalArgumentException("Lock resource must not be empty");
		}
		for (int i = 0; i < resource.length(); i++) {
			if (Character.isISOControl(resource.charAt(i))) {
				// The resource itself is not shown: it holds the control character.
				throw new IllegalArgumentException(
						String.format("Lock resource must not contain control characters, which the lock's Redis names "
								+ "reserve, but has U+%04X at index %d", (int) resource.charAt(i), i));
			}
		}
	}

	/**
	 * Return the name of the sorted set holding the permits of this lock resource: a
	 * derived name (see above) of type {@value #PERMITS}. It is also the lease key under
	 * which {@link RedisLockClient} renews, checks and releases a permit.
	 * @return the name of the permits
	 */
	String permits() {
		return derived("{" + hashTag(this.lock) + "}", PERMITS, this.lock);
	}

	/**
	 * Return the resource whose permits the given name holds, or {@code null} for a name
	 * that is no {@link #permits()} name (such as any lock resource, which holds no
	 * separator).
	 * @param name a lock resource or a lease key
	 * @return the resource of the permits, or {@code null}
	 */
	static @Nullable String resourceOfPermits(String name) {
		int tagEnd = name.indexOf(SEPARATOR);
		int typeEnd = (tagEnd >= 0) ? name.indexOf(SEPARATOR, tagEnd + 1) : -1;
		if (typeEnd < 0 || !name.regionMatches(tagEnd + 1, PERMITS, 0, PERMITS.length())
				|| typeEnd != tagEnd + 1 + PERMITS.length()) {
			return null;
		}
		String resource = name.substring(typeEnd + 1);
		// Only a name this class derived counts: the right tag, and a valid resource.
		for (int i = 0; i < resource.length(); i++) {
			if (Character.isISOControl(resource.charAt(i))) {
				return null;
			}
		}
		return (!resource.isEmpty() && of(resource).permits().equals(name)) ? resource : null;
	}

}
