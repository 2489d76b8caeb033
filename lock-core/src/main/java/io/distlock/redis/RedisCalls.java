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
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockHolder;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.util.Assert;

/**
 * Runs the Redis commands of a lock operation and reads their replies: what every
 * operation of {@link RedisLockClient} and its renewal batches do alike.
 */
final class RedisCalls {

	private RedisCalls() {
	}

	/**
	 * Run a command for the given lock, reporting a failure of Redis as a
	 * {@link LockBackendException}.
	 */
	static <T> @Nullable T call(String key, String operation, Supplier<@Nullable T> command) {
		try {
			return command.get();
		}
		catch (DataAccessException ex) {
			throw failure(key, operation, ex);
		}
	}

	/**
	 * Report a failure of Redis in a lock operation as a {@link LockBackendException}.
	 */
	static LockBackendException failure(String key, String operation, Throwable ex) {
		// The most specific cause says why: Spring Data's own message is often just
		// "Error in execution", where Redis said READONLY or NOPERM. When Redis did not
		// answer, the scripts' runner says which Redis and how long it waited.
		Throwable why = NestedExceptionUtils.getMostSpecificCause(ex);
		for (Throwable candidate = ex; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof ScriptRunner.Unanswered) {
				why = candidate;
				break;
			}
		}
		return new LockBackendException(key,
				"Redis failed to " + operation + " lock '" + key + "': " + why.getMessage(), ex);
	}

	/**
	 * Report a failure of Redis in a lock operation as a {@link LockBackendException}
	 * that names the server when it did not answer.
	 * @param server the server and its command timeout, as
	 * {@link RedisAddress#describeWithTimeout} says them
	 */
	static LockBackendException failure(String key, String operation, Throwable ex, String server) {
		if (RedisAddress.isUnanswered(ex)) {
			return new LockBackendException(key, "Redis failed to " + operation + " lock '" + key + "': " + server
					+ " did not answer: " + NestedExceptionUtils.getMostSpecificCause(ex).getMessage(), ex);
		}
		return failure(key, operation, ex);
	}

	/**
	 * Read the reply of an acquire script: whether it acquired, with the fencing token if
	 * so and the holder's remaining lease and description if not.
	 */
	static AcquireResult acquireResult(@Nullable List<?> reply) {
		List<?> values = reply(reply, "acquire");
		long value = (Long) values.get(1);
		if ((Long) values.get(0) == 1L) {
			// The third element: the Redis clock at the grant, in microseconds.
			return new AcquireResult.Acquired(value, (values.size() > 2) ? (Long) values.get(2) : 0L);
		}
		// A third element of 1: a writer's attempt that left its marker; the fourth, the
		// holder's description (holder.lua).
		boolean keepsReadersOut = values.size() > 2 && (Long) values.get(2) == 1L;
		Object holder = (values.size() > 3) ? values.get(3) : null;
		return new AcquireResult.Busy((value >= 0) ? Duration.ofMillis(value) : null, keepsReadersOut,
				LockHolder.parse((holder != null) ? String.valueOf(holder) : null));
	}

	/**
	 * Check that a script answered at all.
	 */
	static <T> T reply(@Nullable T reply, String operation) {
		// Only a pipelined or transactional connection answers null, and we use neither.
		Assert.state(reply != null, () -> "Redis gave no reply to the " + operation + " script");
		return reply;
	}

	/**
	 * Format a duration as a script argument.
	 */
	static String millis(Duration duration) {
		return String.valueOf(duration.toMillis());
	}

	/**
	 * Encode a key or script for a raw connection command.
	 */
	static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Tell whether Redis answered with the given error, anywhere in the cause chain: the
	 * drivers wrap Redis' error reply, such as {@code NOSCRIPT ...}, in exceptions of
	 * their own.
	 */
	static boolean isRedisError(Throwable ex, String error) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String message = cause.getMessage();
			if (message != null && (message.startsWith(error) || message.contains(" " + error))) {
				return true;
			}
		}
		return false;
	}

}
