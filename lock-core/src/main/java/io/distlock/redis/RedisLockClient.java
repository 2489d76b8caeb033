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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.core.AcquireResult;
import io.distlock.core.FairLockClient;
import io.distlock.core.RaisableFencingLockClient;
import io.distlock.core.Renewal;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * The {@link LockClient} on one Redis master, or on Redis Cluster: each operation is one
 * Lua script, run atomically in one round trip.
 *
 * <p>
 * A release is published on the lock's release channel, which
 * {@link RedisReleaseNotifier} turns into a wake-up of a waiting caller. Fair locks queue
 * their waiters in a list beside the lock key, with a timeout per place.
 *
 * <p>
 * Uses string serialization only. How long an operation may take is bounded by the
 * command timeout of the connection factory ({@code spring.data.redis.timeout}); when it
 * passes, or Redis cannot be reached, a {@link LockBackendException} is thrown.
 */
public class RedisLockClient implements FairLockClient, RaisableFencingLockClient {

	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	/**
	 * How long a fencing counter is kept after its last acquisition by default.
	 */
	public static final Duration DEFAULT_FENCING_COUNTER_RETENTION = Duration.ofHours(1);

	private final StringRedisTemplate redis;

	private volatile boolean scriptsLoaded;

	private String fencingCounterRetention = String.valueOf(DEFAULT_FENCING_COUNTER_RETENTION.toMillis());

	/**
	 * Create a client on the given connection factory.
	 * @param connectionFactory the Redis connection factory
	 */
	public RedisLockClient(RedisConnectionFactory connectionFactory) {
		this(new StringRedisTemplate(connectionFactory));
	}

	/**
	 * Create a client on the given template.
	 * @param redis the template to run the scripts with
	 */
	public RedisLockClient(StringRedisTemplate redis) {
		Assert.notNull(redis, "'redis' must not be null");
		this.redis = redis;
	}

	/**
	 * Set how long a key's fencing counter is kept after the key was last acquired.
	 * Tokens stay increasing beyond it, derived from the Redis clock, as long as that
	 * clock does not step back by more than this; a longer retention costs a small key
	 * per lock key.
	 * @param retention the retention, one hour by default
	 */
	public void setFencingCounterRetention(Duration retention) {
		Assert.isTrue(retention != null && retention.toMillis() > 0, "'retention' must be positive");
		this.fencingCounterRetention = String.valueOf(retention.toMillis());
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		AcquireResult result = acquireResult(call(key, "acquire", () -> this.redis.execute(LockScripts.ACQUIRE,
				List.of(keys.lock(), keys.fence()), ownerToken, millis(ttl), this.fencingCounterRetention)));
		if (result instanceof AcquireResult.Acquired) {
			loadScriptsOnce();
		}
		return result;
	}

	@Override
	public AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		AcquireResult result = acquireResult(call(key, "acquire",
				() -> this.redis.execute(LockScripts.ACQUIRE_FAIR,
						List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts()), ownerToken, millis(ttl),
						this.fencingCounterRetention, millis(queueTimeout), keys.channel())));
		if (result instanceof AcquireResult.Acquired) {
			loadScriptsOnce();
		}
		return result;
	}

	@Override
	public boolean leaveQueue(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long left = call(key, "leave the queue of", () -> this.redis.execute(LockScripts.LEAVE_QUEUE,
				List.of(keys.lock(), keys.queue(), keys.queueTimeouts()), ownerToken, keys.channel()));
		return reply(left, "leave-queue") == 1L;
	}

	/**
	 * Release the lock and publish the release, so that waiters wake up: see
	 * {@link RedisReleaseNotifier}.
	 */
	@Override
	public boolean release(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long released = call(key, "release", () -> this.redis.execute(LockScripts.RELEASE,
				List.of(keys.lock(), keys.queue()), ownerToken, keys.channel(), key));
		return reply(released, "release") == 1L;
	}

	@Override
	public boolean renew(String key, String ownerToken, Duration ttl) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long renewed = call(key, "renew",
				() -> this.redis.execute(LockScripts.RENEW, List.of(keys.lock()), ownerToken, millis(ttl)));
		return reply(renewed, "renew") == 1L;
	}

	/**
	 * Renew the leases in one pipeline: one round trip for the whole batch. The first
	 * renewal goes alone, which also makes sure Redis knows the script before the rest
	 * are sent with EVALSHA.
	 */
	@Override
	public boolean[] renewAll(List<Renewal> renewals) {
		boolean[] renewed = new boolean[renewals.size()];
		if (renewed.length == 0) {
			return renewed;
		}
		Renewal first = renewals.get(0);
		renewed[0] = renew(first.key(), first.ownerToken(), first.ttl());
		List<Renewal> rest = renewals.subList(1, renewals.size());
		List<Object> replies = call(first.key(), "renew",
				() -> this.redis.executePipelined((RedisCallback<?>) (connection) -> {
					for (Renewal renewal : rest) {
						connection.scriptingCommands()
							.evalSha(LockScripts.RENEW.getSha1(), ReturnType.INTEGER, 1,
									bytes(RedisLockKeys.of(renewal.key()).lock()), bytes(renewal.ownerToken()),
									bytes(millis(renewal.ttl())));
					}
					return null;
				}));
		for (int i = 0; i < rest.size(); i++) {
			renewed[i + 1] = Long.valueOf(1).equals(replies.get(i));
		}
		return renewed;
	}

	@Override
	public boolean raiseFencingToken(String key, String ownerToken, long fencingToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long raised = call(key, "raise the fencing token of",
				() -> this.redis.execute(LockScripts.RAISE_FENCE, List.of(keys.lock(), keys.fence()), ownerToken,
						String.valueOf(fencingToken), this.fencingCounterRetention));
		return raised != null && raised == 1L;
	}

	@Override
	public boolean isHeld(String key, String ownerToken) {
		String lockKey = RedisLockKeys.of(key).lock();
		return ownerToken.equals(call(key, "check", () -> this.redis.opsForValue().get(lockKey)));
	}

	private <T> @Nullable T call(String key, String operation, Supplier<@Nullable T> command) {
		try {
			return command.get();
		}
		catch (DataAccessException ex) {
			throw new LockBackendException(key,
					"Redis failed to " + operation + " lock '" + key + "': " + ex.getMessage(), ex);
		}
	}

	private static AcquireResult acquireResult(@Nullable List<?> reply) {
		List<?> values = reply(reply, "acquire");
		long value = (Long) values.get(1);
		if ((Long) values.get(0) == 1L) {
			return new AcquireResult.Acquired(value);
		}
		return new AcquireResult.Busy((value >= 0) ? Duration.ofMillis(value) : null);
	}

	private static String millis(Duration duration) {
		return String.valueOf(duration.toMillis());
	}

	/**
	 * Load every script into Redis once Redis has answered, so that the first renewal or
	 * release does not pay an extra round trip for Redis to learn its script (EVALSHA,
	 * NOSCRIPT, then EVAL): on a slow link that round trip could outlast the lease. After
	 * a Redis restart the scripts load again on first use.
	 */
	private void loadScriptsOnce() {
		if (this.scriptsLoaded) {
			return;
		}
		// Tried once: if it fails, the scripts still load on first use.
		this.scriptsLoaded = true;
		try {
			this.redis.executePipelined((RedisCallback<?>) (connection) -> {
				for (RedisScript<?> script : LockScripts.ALL) {
					connection.scriptingCommands().scriptLoad(bytes(script.getScriptAsString()));
				}
				return null;
			});
		}
		catch (RuntimeException ex) {
			logger.debug("Could not load the lock scripts ahead of use; they load on first use instead", ex);
		}
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	private static <T> T reply(@Nullable T reply, String operation) {
		// Only a pipelined or transactional connection answers null, and we use neither.
		Assert.state(reply != null, () -> "Redis gave no reply to the " + operation + " script");
		return reply;
	}

}
