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

package io.distlock.fencing.redis;

import java.util.List;

import io.distlock.fencing.FencingTokenRejectedException;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * Writes to data kept in Redis, fenced by the writer's fencing token: a value, a hash
 * field or a delete runs only if the token is at least the last one accepted for that
 * key, in one script, atomic in Redis. The write of a holder whose lock expired while it
 * worked is then refused with {@link FencingTokenRejectedException} instead of undoing a
 * later holder's.
 *
 * <p>
 * The last accepted token of a key lives in a fence key of its own, one per data key: the
 * data key with a suffix that starts with a NUL byte. No key written here may hold a
 * control character, so a fence key never collides with a data key, nor a data key with a
 * lock's names (which hold one). It is in the data key's hash slot, so the writes work on
 * a Redis Cluster too: a key without a hash tag is made the tag of its fence key
 * ({@code stock:1} is fenced by {@code {stock:1}} and the suffix); a key that is one
 * whole hash tag ({@code {stock:1}}) takes another suffix, so that the two do not share a
 * fence. A key whose slot no fence key can share (one with a {@code '}'} but no hash tag)
 * is refused. Fence keys do not expire and outlive a delete: a stale holder must not
 * write a deleted key back.
 */
public class RedisFencedWrites {

	private static final String FENCE_SUFFIX = "\u0000distlock-fence";

	// Another text after the NUL: "{K}" must not share the fence of K, "{K}" +
	// FENCE_SUFFIX.
	private static final String WHOLE_TAG_FENCE_SUFFIX = "\u0000distlock-tag-fence";

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> FENCED_WRITE = RedisScript
		.of(new ClassPathResource("fenced-write.lua", RedisFencedWrites.class), List.class);

	private final StringRedisTemplate redis;

	/**
	 * Create fenced writes on the given Redis.
	 * @param connectionFactory the connections to Redis
	 */
	public RedisFencedWrites(RedisConnectionFactory connectionFactory) {
		this.redis = new StringRedisTemplate(connectionFactory);
	}

	/**
	 * Set a string value, unless a write with a higher token was accepted for the key.
	 * @param key the data key
	 * @param value the value
	 * @param fencingToken the token of the lock held while writing
	 * @throws FencingTokenRejectedException if the token is stale
	 */
	public void set(String key, String value, long fencingToken) {
		Assert.notNull(value, "'value' must not be null");
		write(key, fencingToken, "set", value);
	}

	/**
	 * Set a field of a hash, unless a write with a higher token was accepted for the key.
	 * @param key the hash's key
	 * @param field the field
	 * @param value the value
	 * @param fencingToken the token of the lock held while writing
	 * @throws FencingTokenRejectedException if the token is stale
	 */
	public void setField(String key, String field, String value, long fencingToken) {
		Assert.notNull(field, "'field' must not be null");
		Assert.notNull(value, "'value' must not be null");
		write(key, fencingToken, "hset", field, value);
	}

	/**
	 * Delete a key, unless a write with a higher token was accepted for it; its fence
	 * stays, so that a stale holder cannot write it back.
	 * @param key the data key
	 * @param fencingToken the token of the lock held while deleting
	 * @throws FencingTokenRejectedException if the token is stale
	 */
	public void delete(String key, long fencingToken) {
		write(key, fencingToken, "del");
	}

	/**
	 * Return the fence key that holds the last accepted token of a data key.
	 * @param key the data key
	 * @return the fence key
	 */
	static String fenceKey(String key) {
		Assert.isTrue(key != null && !key.isEmpty(), "'key' must not be empty");
		Assert.isTrue(key.chars().noneMatch(Character::isISOControl),
				() -> "'key' must not contain control characters, which distlock's own names are made of");
		int open = key.indexOf('{');
		int close = (open >= 0) ? key.indexOf('}', open + 1) : -1;
		if (close > open + 1) {
			// Hash-tagged: the suffix keeps the tag, and so the slot.
			return key + ((open == 0 && close == key.length() - 1) ? WHOLE_TAG_FENCE_SUFFIX : FENCE_SUFFIX);
		}
		Assert.isTrue(key.indexOf('}') < 0, () -> "'" + key + "' cannot be fenced: it has no hash tag, and its '}' "
				+ "keeps a fence key out of its hash slot on a Redis Cluster; give it a hash tag, such as {order:1}");
		// The whole key made the tag: the same slot. The one form of a tagged key that
		// this gives, a whole tag, takes the other suffix.
		return "{" + key + "}" + FENCE_SUFFIX;
	}

	private void write(String key, long fencingToken, String write, String... arguments) {
		Assert.isTrue(fencingToken >= 0, () -> "'fencingToken' must not be negative but was " + fencingToken);
		String[] argv = new String[2 + arguments.length];
		argv[0] = Long.toString(fencingToken);
		argv[1] = write;
		System.arraycopy(arguments, 0, argv, 2, arguments.length);
		List<?> result = this.redis.execute(FENCED_WRITE, List.of(key, fenceKey(key)), (Object[]) argv);
		if (result == null || result.isEmpty() || ((Number) result.get(0)).longValue() != 1) {
			long recorded = (result != null && result.size() > 1) ? Long.parseLong(String.valueOf(result.get(1))) : 0;
			throw new FencingTokenRejectedException(key, fencingToken, recorded);
		}
	}

}
