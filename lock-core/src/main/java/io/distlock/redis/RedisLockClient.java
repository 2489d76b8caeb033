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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.core.AcquireResult;
import io.distlock.core.FairLockClient;
import io.distlock.core.RaisableFencingLockClient;
import io.distlock.core.Renewal;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
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
public class RedisLockClient implements FairLockClient, RaisableFencingLockClient, InitializingBean {

	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	/**
	 * How long a fencing counter is kept after its last acquisition by default.
	 */
	public static final Duration DEFAULT_FENCING_COUNTER_RETENTION = Duration.ofMinutes(10);

	/**
	 * The most leases renewed by one script call. Redis runs nothing else while a script
	 * runs: 500 leases keep it busy for under a millisecond (about 0.65 ms measured on
	 * Redis 6.2, 1.3 µs a lease), while a tick of a few thousand leases still takes only
	 * a handful of round trips.
	 */
	static final int MAX_RENEWAL_BATCH = 500;

	private final StringRedisTemplate redis;

	private volatile @Nullable Boolean cluster;

	private volatile boolean scriptsLoaded;

	private String fencingCounterRetention = String.valueOf(DEFAULT_FENCING_COUNTER_RETENTION.toMillis());

	private @Nullable ReplicaAcknowledgement acknowledgement;

	private String publishCommand = "PUBLISH";

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
	 * @param retention the retention, {@link #DEFAULT_FENCING_COUNTER_RETENTION ten
	 * minutes} by default
	 */
	public void setFencingCounterRetention(Duration retention) {
		Assert.isTrue(retention != null && retention.toMillis() > 0, "'retention' must be positive");
		this.fencingCounterRetention = String.valueOf(retention.toMillis());
	}

	/**
	 * Publish releases on sharded channels ({@code SPUBLISH}, Redis 7 and later), which
	 * only the nodes serving the lock's slot carry, instead of classic channels, which
	 * Redis Cluster broadcasts to every node. Set it when the release notifier subscribes
	 * with {@code SSUBSCRIBE}, as {@link ShardedReleaseNotifier} does; Redis before 7
	 * gets classic messages all the same.
	 * @param sharded whether to publish on sharded channels; {@code false} by default
	 */
	public void setShardedReleaseMessages(boolean sharded) {
		this.publishCommand = sharded ? "SPUBLISH" : "PUBLISH";
	}

	/**
	 * Count an acquisition or renewal as done only once the given number of replicas
	 * acknowledged it ({@code WAIT}). An acquisition they do not acknowledge in time is
	 * released again and answered {@link AcquireResult.NotConfirmed}; such a renewal
	 * fails with a {@link LockBackendException}, which the renewer retries. This narrows
	 * the window in which a failover to a replica that missed the lock loses it; it does
	 * not close it (see the README).
	 * @param minReplicas how many replicas must acknowledge; 0 (the default) waits for
	 * none
	 * @param timeout how long to wait for them
	 */
	public void setReplicaAcknowledgement(int minReplicas, Duration timeout) {
		Assert.isTrue(minReplicas >= 0, "'minReplicas' must not be negative");
		this.acknowledgement = (minReplicas > 0) ? new ReplicaAcknowledgement(minReplicas, timeout) : null;
	}

	/**
	 * Connect to Redis and load the lock scripts ahead of the first lock, on a thread of
	 * its own so that startup does not wait: the first acquisition otherwise pays for the
	 * connection's handshake and for Redis learning its script while its lease is already
	 * running, which on a slow link (100 ms each way) took longer than a 900 ms lease. A
	 * Redis that is down now is connected to on first use, as usual.
	 */
	@Override
	public void afterPropertiesSet() {
		loadScriptsOnce();
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		AcquireResult result = acquired(key, ownerToken, LockScripts.ACQUIRE, List.of(keys.lock(), keys.fence()),
				ownerToken, millis(ttl), this.fencingCounterRetention);
		if (result instanceof AcquireResult.Acquired) {
			loadScriptsOnce();
		}
		return result;
	}

	@Override
	public AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		AcquireResult result = acquired(key, ownerToken, LockScripts.ACQUIRE_FAIR,
				List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts()), ownerToken, millis(ttl),
				this.fencingCounterRetention, millis(queueTimeout), keys.channel(), this.publishCommand);
		if (result instanceof AcquireResult.Acquired) {
			loadScriptsOnce();
		}
		return result;
	}

	/**
	 * Run an acquire script and, when replicas must acknowledge, give back a lock they
	 * did not acknowledge in time.
	 */
	@SuppressWarnings("rawtypes")
	private AcquireResult acquired(String key, String ownerToken, RedisScript<List> script, List<String> keys,
			String... args) {
		ReplicaAcknowledgement acknowledgement = this.acknowledgement;
		try {
			if (acknowledgement == null) {
				return acquireResult(call(key, "acquire", () -> this.redis.execute(script, keys, (Object[]) args)));
			}
			ReplicaAcknowledgement.Acknowledged<List> reply = reply(
					call(key, "acquire", () -> acknowledgement.run(this.redis, script, keys, args)), "acquire");
			AcquireResult result = acquireResult(reply.reply());
			if (result instanceof AcquireResult.Acquired && reply.replicas() < acknowledgement.replicas()) {
				release(key, ownerToken);
				return new AcquireResult.NotConfirmed(acknowledgement.shortfall(reply.replicas()));
			}
			return result;
		}
		catch (LockBackendException ex) {
			if (SlotMigrationRetry.isTryAgain(ex)) {
				// Refused before it ran: nothing was taken; worth trying again shortly.
				return new AcquireResult.NotConfirmed(SlotMigrationRetry.MIGRATING);
			}
			throw ex;
		}
	}

	@Override
	public boolean leaveQueue(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long left = SlotMigrationRetry.call(() -> call(key, "leave the queue of",
				() -> this.redis.execute(LockScripts.LEAVE_QUEUE,
						List.of(keys.lock(), keys.queue(), keys.queueTimeouts()), ownerToken, keys.channel(),
						this.publishCommand)));
		return reply(left, "leave-queue") == 1L;
	}

	/**
	 * Release the lock and publish the release, so that waiters wake up: see
	 * {@link RedisReleaseNotifier}. While the lock's slot migrates between cluster nodes
	 * the release is tried again for up to two seconds.
	 */
	@Override
	public boolean release(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long released = SlotMigrationRetry.call(() -> call(key, "release", () -> this.redis.execute(LockScripts.RELEASE,
				List.of(keys.lock(), keys.queue()), ownerToken, keys.channel(), key, this.publishCommand)));
		return reply(released, "release") == 1L;
	}

	@Override
	public boolean renew(String key, String ownerToken, Duration ttl) {
		String lockKey = RedisLockKeys.lockKey(key);
		ReplicaAcknowledgement acknowledgement = this.acknowledgement;
		if (acknowledgement == null) {
			Long renewed = call(key, "renew",
					() -> this.redis.execute(LockScripts.RENEW, List.of(lockKey), ownerToken, millis(ttl)));
			return reply(renewed, "renew") == 1L;
		}
		ReplicaAcknowledgement.Acknowledged<Long> renewed = reply(call(key, "renew",
				() -> acknowledgement.run(this.redis, LockScripts.RENEW, List.of(lockKey), ownerToken, millis(ttl))),
				"renew");
		boolean held = renewed.reply() == 1L;
		if (held && renewed.replicas() < acknowledgement.replicas()) {
			throw new LockBackendException(key,
					"Renewal of lock '" + key + "' was " + acknowledgement.shortfall(renewed.replicas()), null);
		}
		return held;
	}

	/**
	 * Renew the leases with one script call per batch, over the connection every other
	 * operation uses: a pipeline would run on a dedicated connection, which Lettuce opens
	 * and closes again for each tick unless the factory pools connections. Each lease is
	 * judged on its own, so a lock key overwritten with another type is reported lost
	 * without failing the others.
	 *
	 * <p>
	 * Leases are sent {@value #MAX_RENEWAL_BATCH} at a time at most, and on Redis Cluster
	 * grouped by hash slot, since the keys of one script call must share a slot there.
	 */
	@Override
	public boolean[] renewAll(List<Renewal> renewals) {
		boolean[] renewed = new boolean[renewals.size()];
		if (renewals.isEmpty()) {
			return renewed;
		}
		List<String> lockKeys = new ArrayList<>(renewals.size());
		renewals.forEach((renewal) -> lockKeys.add(RedisLockKeys.lockKey(renewal.key())));
		for (List<Integer> batch : batches(lockKeys)) {
			renewBatch(renewals, lockKeys, batch, renewed);
		}
		return renewed;
	}

	private void renewBatch(List<Renewal> renewals, List<String> lockKeys, List<Integer> batch, boolean[] renewed) {
		List<String> keys = new ArrayList<>(batch.size());
		String[] args = new String[batch.size() * 2];
		for (int i = 0; i < batch.size(); i++) {
			Renewal renewal = renewals.get(batch.get(i));
			keys.add(lockKeys.get(batch.get(i)));
			args[i] = renewal.ownerToken();
			args[batch.size() + i] = millis(renewal.ttl());
		}
		String first = renewals.get(batch.get(0)).key();
		List<?> replies = renewBatch(first, keys, args);
		Assert.state(replies.size() == batch.size(),
				() -> "Redis answered " + replies.size() + " renewals to a batch of " + batch.size());
		for (int i = 0; i < batch.size(); i++) {
			renewed[batch.get(i)] = Long.valueOf(1).equals(replies.get(i));
		}
	}

	private List<?> renewBatch(String first, List<String> keys, String[] args) {
		ReplicaAcknowledgement acknowledgement = this.acknowledgement;
		if (acknowledgement == null) {
			return reply(call(first, "renew", () -> this.redis.execute(LockScripts.RENEW_ALL, keys, (Object[]) args)),
					"renew-all");
		}
		@SuppressWarnings("rawtypes")
		ReplicaAcknowledgement.Acknowledged<List> renewed = reply(
				call(first, "renew", () -> acknowledgement.run(this.redis, LockScripts.RENEW_ALL, keys, args)),
				"renew-all");
		if (renewed.replicas() < acknowledgement.replicas()) {
			throw new LockBackendException(first,
					"Renewal of " + keys.size() + " lock(s) was " + acknowledgement.shortfall(renewed.replicas()),
					null);
		}
		return renewed.reply();
	}

	/**
	 * Split the renewals' lock keys, by their index, into the batches sent in one script
	 * call each.
	 */
	private List<List<Integer>> batches(List<String> lockKeys) {
		Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
		boolean cluster = isCluster();
		for (int i = 0; i < lockKeys.size(); i++) {
			int slot = cluster ? ClusterSlotHashUtil.calculateSlot(bytes(lockKeys.get(i))) : 0;
			bySlot.computeIfAbsent(slot, (key) -> new ArrayList<>()).add(i);
		}
		List<List<Integer>> batches = new ArrayList<>();
		for (List<Integer> sameSlot : bySlot.values()) {
			for (int from = 0; from < sameSlot.size(); from += MAX_RENEWAL_BATCH) {
				batches.add(sameSlot.subList(from, Math.min(from + MAX_RENEWAL_BATCH, sameSlot.size())));
			}
		}
		return batches;
	}

	private boolean isCluster() {
		Boolean cluster = this.cluster;
		if (cluster == null) {
			// Getting a connection sends no command; the answer cannot change.
			cluster = Boolean.TRUE.equals(this.redis
				.execute((RedisCallback<Boolean>) (connection) -> connection instanceof RedisClusterConnection, true));
			this.cluster = cluster;
		}
		return cluster;
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
		String lockKey = RedisLockKeys.lockKey(key);
		return ownerToken.equals(call(key, "check", () -> this.redis.opsForValue().get(lockKey)));
	}

	private <T> @Nullable T call(String key, String operation, Supplier<@Nullable T> command) {
		try {
			return command.get();
		}
		catch (DataAccessException ex) {
			// The most specific cause says why: Spring Data's own message is often just
			// "Error in execution", where Redis said READONLY or NOPERM.
			throw new LockBackendException(key, "Redis failed to " + operation + " lock '" + key + "': "
					+ NestedExceptionUtils.getMostSpecificCause(ex).getMessage(), ex);
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
	 * NOSCRIPT, then EVAL). The scripts load on a thread of their own, over the shared
	 * connection, one {@code SCRIPT LOAD} after the other: the acquisition that triggers
	 * it must not wait, since its lease is already running (a pipeline here used to open
	 * a connection of its own, which on a slow link took longer than a short lease).
	 * After a Redis restart the scripts load again on first use.
	 */
	private void loadScriptsOnce() {
		if (this.scriptsLoaded) {
			return;
		}
		// Tried once: if it fails, the scripts still load on first use.
		this.scriptsLoaded = true;
		Thread loader = new Thread(this::loadScripts, "distlock-script-loader");
		loader.setDaemon(true);
		loader.start();
	}

	private void loadScripts() {
		try {
			// The shared connection: opened here, if not yet, and kept for the locks.
			this.redis.execute((RedisCallback<String>) (connection) -> connection.ping());
			for (RedisScript<?> script : LockScripts.ALL) {
				this.redis.execute((RedisCallback<String>) (connection) -> connection.scriptingCommands()
					.scriptLoad(bytes(script.getScriptAsString())));
			}
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
