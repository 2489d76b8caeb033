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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.distlock.store.LockHolder;
import io.distlock.store.LockState;

/**
 * Reads the state of a lock of {@link RedisLockClient} for an operator, in one script
 * call: whether it is held and by whom, its lease, its last fencing token, and how many
 * fair waiters, readers and permit holders it has.
 */
final class RedisLockInspection {

	// How many read holds and how many permit holders an inspection describes at most.
	static final int MAX_LISTED = 100;

	private final ScriptRunner redis;

	RedisLockInspection(ScriptRunner redis) {
		this.redis = redis;
	}

	/**
	 * Read the lock key, its fencing counter, its fair queue, its read holds and its
	 * permits, with the holder named by the start of the SHA-1 of its owner token.
	 */
	LockState inspect(String key) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		List<?> reply = RedisCalls.reply(
				RedisCalls.call(key, "inspect",
						() -> this.redis.run(LockScripts.INSPECT, List.of(keys.lock(), keys.fence(),
								keys.queueTimeouts(), keys.readHolds(), keys.permits()), Integer.toString(MAX_LISTED))),
				"inspect");
		boolean held = (Long) reply.get(0) == 1L;
		long lease = (Long) reply.get(1);
		@Nullable String fence = (String) reply.get(2);
		return new LockState(held, (held && lease >= 0) ? Duration.ofMillis(lease) : null,
				(fence != null) ? lastFencingToken(fence) : null, Math.toIntExact((Long) reply.get(3)),
				held ? (String) reply.get(4) : null, Math.toIntExact((Long) reply.get(5)),
				Math.toIntExact((Long) reply.get(6)), holdings((List<?>) reply.get(7)));
	}

	/**
	 * Read the holdings of an inspection's reply: kind, digest, description and remaining
	 * lease of each ({@code inspect.lua}).
	 */
	private static List<LockState.Holding> holdings(List<?> values) {
		List<LockState.Holding> holdings = new ArrayList<>(values.size() / 4);
		for (int i = 0; i + 3 < values.size(); i += 4) {
			LockState.Kind kind = LockState.Kind.valueOf(String.valueOf(values.get(i)).toUpperCase(Locale.ROOT));
			Object description = values.get(i + 2);
			long lease = (Long) values.get(i + 3);
			holdings.add(new LockState.Holding(kind, String.valueOf(values.get(i + 1)),
					LockHolder.parse((description != null) ? String.valueOf(description) : null),
					(lease >= 0) ? Duration.ofMillis(lease) : null));
		}
		return holdings;
	}

	/**
	 * Read the last fencing token from a fencing counter's value: {@code "T"} or
	 * {@code "T:C"}, the token and the Redis clock it was granted at when they differ
	 * ({@code fencing.lua}).
	 * @param counter the counter's value
	 * @return the last token
	 */
	static long lastFencingToken(String counter) {
		int colon = counter.indexOf(':');
		return Long.parseLong((colon < 0) ? counter : counter.substring(0, colon));
	}

}
