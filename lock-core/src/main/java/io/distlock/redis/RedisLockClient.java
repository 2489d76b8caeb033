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
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.core.AcquireResult;
import io.distlock.core.AsyncFencingLockCalls;
import io.distlock.core.FairLockClient;
import io.distlock.core.HandoverLockClient;
import io.distlock.core.InspectableLockClient;
import io.distlock.core.LockState;
import io.distlock.core.PermitLockClient;
import io.distlock.core.RaisableFencingLockClient;
import io.distlock.core.ReadWriteLockClient;
import io.distlock.core.Renewal;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * The {@link io.distlock.core.LockClient LockClient} on one Redis master, or on Redis
 * Cluster: each operation is one Lua script, run atomically in one round trip.
 *
 * <p>
 * A release is published on the lock's release channel, which
 * {@link RedisReleaseNotifier} turns into a wake-up of a waiting caller, when a caller
 * found the lock busy and announced itself: an uncontended release publishes nothing.
 * Fair locks queue their waiters in a list beside the lock key, with a timeout per place.
 * Read holds are kept in a sorted set beside the lock key, one lease per reader; a writer
 * that finds readers leaves a marker that keeps new readers out while it waits. An
 * operator can {@link #inspect inspect} a lock and {@link #forceRelease force-release}
 * it.
 *
 * <p>
 * Uses string serialization only. How long an operation may take is bounded by the
 * command timeout of the connection factory ({@code spring.data.redis.timeout}); when it
 * passes, or Redis cannot be reached, a {@link LockBackendException} is thrown.
 */
public class RedisLockClient implements FairLockClient, ReadWriteLockClient, RaisableFencingLockClient,
		InspectableLockClient, PermitLockClient, HandoverLockClient, InitializingBean {

	/**
	 * How long a fencing counter is kept after its last acquisition by default.
	 */
	public static final Duration DEFAULT_FENCING_COUNTER_RETENTION = Duration.ofMinutes(10);

	/**
	 * The shortest fencing counter retention allowed: the fencing guarantee needs the
	 * counter to outlive the clock differences it absorbs (docs/safety.md), and a counter
	 * kept for a moment only would leave the tokens to the clocks alone.
	 */
	public static final Duration MIN_FENCING_COUNTER_RETENTION = Duration.ofMinutes(1);

	/**
	 * How long a writer waiting for readers keeps new readers out, after its last
	 * attempt, by default.
	 */
	public static final Duration DEFAULT_WRITER_WAIT_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * The most leases renewed by one script call: see {@link RenewalBatches#MAX_SIZE}.
	 */
	static final int MAX_RENEWAL_BATCH = RenewalBatches.MAX_SIZE;

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisLockClient.class.getClassLoader());

	private final StringRedisTemplate redis;

	private final RenewalBatches renewals;

	private final ScriptPreloader scripts;

	private final RedisPermits permits;

	private String fencingCounterRetention = String.valueOf(DEFAULT_FENCING_COUNTER_RETENTION.toMillis());

	private final FencingClockCheck fencingClock = new FencingClockCheck();

	private ReplicaAcknowledgement acknowledgement = ReplicaAcknowledgement.NONE;

	private String publishCommand = "PUBLISH";

	private String writerWaitTimeout = String.valueOf(DEFAULT_WRITER_WAIT_TIMEOUT.toMillis());

	// ARGV[5] of acquire.lua.
	private String fencingTokensFromClock = "1";

	private volatile @Nullable AsyncLockCalls asyncCalls;

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
		this.renewals = new RenewalBatches(redis);
		this.scripts = new ScriptPreloader(redis);
		this.permits = new RedisPermits(redis);
		// Read the scripts now: threads that find the class still initializing wait for
		// it, and a virtual thread waiting there pins its carrier.
		Assert.state(!LockScripts.ALL.isEmpty(), "No lock scripts");
	}

	/**
	 * Set how long a key's fencing counter is kept after the key's last acquisition.
	 * Tokens stay increasing beyond it, as each token is at least the Redis clock in
	 * microseconds, as long as the tokens did not run ahead of that clock by more than
	 * this ({@link #getLargestFencingLead()}); a clock found behind the last token's is
	 * absorbed up to this retention. A longer retention costs a small key per lock key.
	 * @param retention the retention, {@link #DEFAULT_FENCING_COUNTER_RETENTION ten
	 * minutes} by default, at least {@link #MIN_FENCING_COUNTER_RETENTION one minute}
	 * @throws IllegalArgumentException if the retention is shorter than one minute
	 */
	public void setFencingCounterRetention(Duration retention) {
		this.fencingCounterRetention = checkedRetention(retention);
	}

	/**
	 * Check a fencing counter retention against the floor the fencing guarantee needs.
	 * @param retention the retention
	 * @return the retention in milliseconds, as a script argument
	 */
	static String checkedRetention(Duration retention) {
		Assert.notNull(retention, "'retention' must not be null");
		Assert.isTrue(retention.compareTo(MIN_FENCING_COUNTER_RETENTION) >= 0,
				() -> "The fencing counter retention must be at least " + MIN_FENCING_COUNTER_RETENTION.toSeconds()
						+ "s, but was " + retention.toMillis() + "ms: a shorter one leaves fencing tokens to the clock "
						+ "alone (docs/safety.md)");
		return String.valueOf(retention.toMillis());
	}

	/**
	 * Return the largest lead of a fencing token over the Redis clock that this client
	 * was handed, the run-time check of the fencing guarantee's assumption on clocks
	 * (docs/safety.md): zero while tokens come from the clock. A lead appears after the
	 * clock stepped back or after a failover to a server whose clock is behind the former
	 * primary's; one above a second is logged as a warning, once.
	 * @return the largest lead seen
	 */
	public Duration getLargestFencingLead() {
		return this.fencingClock.largest();
	}

	/**
	 * Look at a fencing token this client was handed: see {@link FencingClockCheck}.
	 */
	AcquireResult checkedFencing(String key, AcquireResult result) {
		this.fencingClock.check(key, result, Long.parseLong(this.fencingCounterRetention));
		return result;
	}

	/**
	 * Set how long a writer that found readers keeps new readers out after its last
	 * attempt. A writer is told to come back within half of it, so that a waiting writer
	 * keeps readers out until the readers it found are gone; one that gave up lets
	 * readers in again after it.
	 * @param timeout the timeout, {@link #DEFAULT_WRITER_WAIT_TIMEOUT two seconds} by
	 * default
	 */
	public void setWriterWaitTimeout(Duration timeout) {
		Assert.isTrue(timeout != null && timeout.toMillis() > 1, "'timeout' must be longer than a millisecond");
		this.writerWaitTimeout = String.valueOf(timeout.toMillis());
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
	 * Set whether every fencing token takes the Redis clock, as by default: a token is
	 * then the larger of the clock in microseconds and the key's last token + 1, so that
	 * tokens keep increasing across a failover to a replica that missed the last ones.
	 * Without, a token is the key's counter incremented (the clock only starts a counter
	 * that is gone): one Redis command less, right only for masters that no replica ever
	 * replaces. Redlock's nodes are such masters, and there it keeps their counters in
	 * step, so that a lock need not raise them; {@link io.distlock.redlock.RedlockNodes}
	 * turns it off. Applies to exclusive locks taken without the fair queue.
	 * @param fromClock whether tokens take the clock; {@code true} by default
	 */
	public void setFencingTokensFromClock(boolean fromClock) {
		this.fencingTokensFromClock = fromClock ? "1" : "0";
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
		this.acknowledgement = ReplicaAcknowledgement.of(minReplicas, timeout);
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
		this.scripts.loadOnce();
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		return tryAcquire(key, ownerToken, ttl, true);
	}

	/**
	 * Take the lock as {@link #tryAcquire} does, without announcing the attempt to the
	 * holder when the lock is busy: a caller that does not wait needs no wake-up, and an
	 * announcement would make the holder's release publish, and turn off its
	 * application's local hand-over, for the holder's whole lease.
	 */
	@Override
	public AcquireResult tryAcquireOnce(String key, String ownerToken, Duration ttl) {
		return tryAcquire(key, ownerToken, ttl, false);
	}

	@SuppressWarnings("rawtypes")
	private AcquireResult tryAcquire(String key, String ownerToken, Duration ttl, boolean waits) {
		ScriptCall<List> call = acquireCall(key, ownerToken, ttl, waits);
		return acquired(key, () -> release(key, ownerToken), call.script(), call.keys(), call.args());
	}

	/**
	 * Build the call of the acquire script, for {@link #tryAcquire} and for
	 * {@link AsyncLockCalls}.
	 */
	@SuppressWarnings("rawtypes")
	ScriptCall<List> acquireCall(String key, String ownerToken, Duration ttl, boolean waits) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.ACQUIRE,
				List.of(keys.lock(), keys.fence(), keys.readHolds(), keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention, this.writerWaitTimeout,
						this.fencingTokensFromClock, waits ? "1" : "0" });
	}

	/**
	 * Build the call of the release script, for {@link #release} and for
	 * {@link AsyncLockCalls}.
	 */
	ScriptCall<Long> releaseCall(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.RELEASE,
				List.of(keys.lock(), keys.queue(), keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, keys.channel(), key, this.publishCommand });
	}

	/**
	 * Build the call of the raise-fence script, for {@link #raiseFencingToken} and for
	 * {@link AsyncLockCalls}.
	 */
	ScriptCall<Long> raiseFenceCall(String key, String ownerToken, long fencingToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.RAISE_FENCE, List.of(keys.lock(), keys.fence()),
				new String[] { ownerToken, String.valueOf(fencingToken), this.fencingCounterRetention });
	}

	@Override
	public AcquireResult tryAcquireRead(String key, String ownerToken, Duration ttl) {
		return tryAcquireRead(key, ownerToken, ttl, true);
	}

	@Override
	public AcquireResult tryAcquireReadOnce(String key, String ownerToken, Duration ttl) {
		return tryAcquireRead(key, ownerToken, ttl, false);
	}

	private AcquireResult tryAcquireRead(String key, String ownerToken, Duration ttl, boolean waits) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return acquired(key, () -> releaseRead(key, ownerToken), LockScripts.ACQUIRE_READ,
				List.of(keys.lock(), keys.fence(), keys.readHolds(), keys.writerWaiting(), keys.waiters()), ownerToken,
				RedisCalls.millis(ttl), this.fencingCounterRetention, waits ? "1" : "0");
	}

	@Override
	public AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return acquired(key, () -> release(key, ownerToken), LockScripts.ACQUIRE_FAIR,
				List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts(), keys.readHolds(),
						keys.writerWaiting(), keys.waiters()),
				ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention, RedisCalls.millis(queueTimeout),
				keys.channel(), this.publishCommand, this.writerWaitTimeout);
	}

	/**
	 * Run an acquire script, giving back a lock the replicas did not acknowledge in time,
	 * and load the other scripts once a lock was taken.
	 */
	@SuppressWarnings("rawtypes")
	private AcquireResult acquired(String key, Runnable giveBack, LockScript<List> script, List<String> keys,
			String... args) {
		AcquireResult result = this.acknowledgement.acquire(this.redis, key, "acquire", script, keys, giveBack, args);
		if (result instanceof AcquireResult.Acquired) {
			this.scripts.loadOnce();
		}
		return checkedFencing(key, result);
	}

	@Override
	public boolean leaveQueue(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long left = SlotMigrationRetry.call(() -> RedisCalls.call(key, "leave the queue of",
				() -> LockScripts.LEAVE_QUEUE.run(this.redis, List.of(keys.lock(), keys.queue(), keys.queueTimeouts()),
						ownerToken, keys.channel(), this.publishCommand)));
		return RedisCalls.reply(left, "leave-queue") == 1L;
	}

	/**
	 * Release the lock and publish the release, so that waiters wake up: see
	 * {@link RedisReleaseNotifier}. While the lock's slot migrates between cluster nodes
	 * and Redis refuses the script for a missing key, the release passes the lock key
	 * alone, and publishes unconditionally.
	 */
	@Override
	public boolean release(String key, String ownerToken) {
		String permitsOf = RedisLockKeys.resourceOfPermits(key);
		if (permitsOf != null) {
			return releasePermit(permitsOf, ownerToken);
		}
		ScriptCall<Long> call = releaseCall(key, ownerToken);
		// The same call with the lock key alone (the first key), for a migrating slot.
		ScriptCall<Long> lockKeyOnly = new ScriptCall<>(LockScripts.RELEASE, call.keys().subList(0, 1), call.args());
		Long released = SlotMigrationRetry.orOneKey(() -> RedisCalls.call(key, "release", () -> call.run(this.redis)),
				() -> RedisCalls.call(key, "release", () -> lockKeyOnly.run(this.redis)));
		return RedisCalls.reply(released, "release") == 1L;
	}

	/**
	 * Hand the lock over in one script call, declining while anyone announced that it
	 * waits, fair waiters queue or a writer waits for readers. With replica
	 * acknowledgement set, every hand-over is declined: a new owner must be acknowledged
	 * as an acquisition is, which a hand-over does not wait for.
	 */
	@Override
	public Handover handOver(String key, String ownerToken, String newOwnerToken, Duration ttl) {
		if (this.acknowledgement != ReplicaAcknowledgement.NONE) {
			return new Declined();
		}
		RedisLockKeys keys = RedisLockKeys.of(key);
		List<?> reply = RedisCalls.reply(
				RedisCalls.call(key, "hand over",
						() -> LockScripts.HANDOVER.run(this.redis,
								List.of(keys.lock(), keys.fence(), keys.queue(), keys.writerWaiting(), keys.waiters()),
								ownerToken, newOwnerToken, RedisCalls.millis(ttl), this.fencingCounterRetention)),
				"handover");
		long outcome = (Long) reply.get(0);
		if (outcome == 1L) {
			return new HandedOver((Long) reply.get(1));
		}
		return (outcome == 0L) ? new Declined() : new NotHeld();
	}

	/**
	 * Release a read hold and, when it was the last, publish the release as
	 * {@link #release} does, so that a waiting writer wakes up. While the lock's slot
	 * migrates between cluster nodes and Redis refuses the script for a missing key, the
	 * release passes the read holds alone, and publishes the resource name.
	 */
	@Override
	public boolean releaseRead(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long released = SlotMigrationRetry.orOneKey(
				() -> releaseRead(keys, List.of(keys.readHolds(), keys.queue()), ownerToken),
				() -> releaseRead(keys, List.of(keys.readHolds()), ownerToken));
		return RedisCalls.reply(released, "release-read") == 1L;
	}

	private @Nullable Long releaseRead(RedisLockKeys keys, List<String> scriptKeys, String ownerToken) {
		return RedisCalls.call(keys.lock(), "release the read hold of", () -> LockScripts.RELEASE_READ.run(this.redis,
				scriptKeys, ownerToken, keys.channel(), keys.lock(), this.publishCommand));
	}

	/**
	 * Renew the lock of the owner or, when it holds no lock there, its read hold of the
	 * key: one key per call, the one that exists for that kind, so that Redis Cluster
	 * runs the renewal on whichever node holds the key while its slot migrates. Renewing
	 * a write lease costs what it did before read holds existed.
	 */
	@Override
	public boolean renew(String key, String ownerToken, Duration ttl) {
		if (RedisLockKeys.resourceOfPermits(key) != null) {
			return renewAll(List.of(new Renewal(key, ownerToken, ttl)))[0];
		}
		String millis = RedisCalls.millis(ttl);
		return renew(key, RedisLockKeys.lockKey(key), ownerToken, millis)
				|| renew(key, RedisLockKeys.readHoldsOf(key), ownerToken, millis, "read");
	}

	private boolean renew(String key, String lease, String ownerToken, String... args) {
		ReplicaAcknowledgement acknowledgement = this.acknowledgement;
		String[] scriptArgs = new String[args.length + 1];
		scriptArgs[0] = ownerToken;
		System.arraycopy(args, 0, scriptArgs, 1, args.length);
		ReplicaAcknowledgement.Acknowledged<Long> renewed = RedisCalls.reply(RedisCalls.call(key, "renew",
				() -> acknowledgement.run(this.redis, LockScripts.RENEW, List.of(lease), scriptArgs)), "renew");
		boolean held = renewed.reply() == 1L;
		if (held && acknowledgement.isShort(renewed)) {
			throw new LockBackendException(key,
					"Renewal of lock '" + key + "' was " + acknowledgement.shortfall(renewed.replicas()), null);
		}
		return held;
	}

	/**
	 * Renew the leases with one script call per batch of up to
	 * {@value #MAX_RENEWAL_BATCH}, grouped by hash slot on Redis Cluster. Each lease is
	 * judged on its own, so a lock key overwritten with another type is reported lost
	 * without failing the others.
	 */
	@Override
	public boolean[] renewAll(List<Renewal> renewals) {
		return this.renewals.renewAll(renewals, this.acknowledgement);
	}

	@Override
	public boolean raiseFencingToken(String key, String ownerToken, long fencingToken) {
		ScriptCall<Long> call = raiseFenceCall(key, ownerToken, fencingToken);
		Long raised = RedisCalls.call(key, "raise the fencing token of", () -> call.run(this.redis));
		return raised != null && raised == 1L;
	}

	/**
	 * Return the calls that do not block the caller, when the connection factory is a
	 * Lettuce one of a standalone Redis and no replica acknowledgement is asked for
	 * (which blocks in {@code WAIT}): Redlock then calls its nodes all at once from the
	 * calling thread. Each runs on a connection of its own, opened on first use.
	 * @return the non-blocking calls, or empty for other drivers and for Redis Cluster
	 */
	@Override
	public Optional<AsyncFencingLockCalls> asyncCalls() {
		if (this.acknowledgement != ReplicaAcknowledgement.NONE) {
			return Optional.empty();
		}
		AsyncLockCalls calls = this.asyncCalls;
		if (calls == null && LETTUCE_PRESENT) {
			synchronized (this) {
				// Once: each instance opens connections of its own. The factory's Lettuce
				// client only exists once the factory was started.
				calls = this.asyncCalls;
				if (calls == null) {
					calls = AsyncLockCalls.of(this, this.redis.getConnectionFactory());
					this.asyncCalls = calls;
				}
			}
		}
		return Optional.ofNullable(calls);
	}

	/**
	 * Read the lock key, its fencing counter, its fair queue, its read holds and its
	 * permits in one script call. The holder is named by the first 16 hex digits of the
	 * SHA-1 of its owner token, taken in Redis, so the token itself never leaves it;
	 * readers and permit holders are only counted.
	 */
	@Override
	public LockState inspect(String key) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		List<?> reply = RedisCalls.reply(
				RedisCalls.call(key, "inspect", () -> LockScripts.INSPECT.run(this.redis,
						List.of(keys.lock(), keys.fence(), keys.queueTimeouts(), keys.readHolds(), keys.permits()))),
				"inspect");
		boolean held = (Long) reply.get(0) == 1L;
		long lease = (Long) reply.get(1);
		@Nullable String fence = (String) reply.get(2);
		return new LockState(held, (held && lease >= 0) ? Duration.ofMillis(lease) : null,
				(fence != null) ? RedisLockKeys.lastFencingToken(fence) : null, Math.toIntExact((Long) reply.get(3)),
				held ? (String) reply.get(4) : null, Math.toIntExact((Long) reply.get(5)),
				Math.toIntExact((Long) reply.get(6)));
	}

	/**
	 * Delete the lock key, the read holds, the writer-waiting marker and the permits of
	 * the key, and publish the release as {@link #release} does, leaving the fencing
	 * counter and the fair queue as they are: the first fair waiter is woken and the
	 * others follow in order.
	 */
	@Override
	public boolean forceRelease(String key) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long removed = SlotMigrationRetry.call(() -> RedisCalls.call(key, "force-release",
				() -> LockScripts.FORCE_RELEASE.run(this.redis,
						List.of(keys.lock(), keys.queue(), keys.readHolds(), keys.writerWaiting(), keys.permits()),
						keys.channel(), key, this.publishCommand)));
		return RedisCalls.reply(removed, "force-release") == 1L;
	}

	/**
	 * Check the lock key and, only when the owner does not hold the lock, look for its
	 * read hold with a second call. Each is a script, so that it runs on the primary even
	 * when the connection factory reads from replicas, which may lag behind.
	 */
	@Override
	public boolean isHeld(String key, String ownerToken) {
		String permitsOf = RedisLockKeys.resourceOfPermits(key);
		if (permitsOf != null) {
			return this.permits.isHeld(permitsOf, ownerToken);
		}
		return isHeld(key, "check", LockScripts.HELD, RedisLockKeys.lockKey(key), ownerToken) || isHeld(key,
				"check the read hold of", LockScripts.READ_HELD, RedisLockKeys.readHoldsOf(key), ownerToken);
	}

	private boolean isHeld(String key, String what, LockScript<Long> script, String lease, String ownerToken) {
		Long held = RedisCalls.call(key, what, () -> script.run(this.redis, List.of(lease), ownerToken));
		return held != null && held == 1L;
	}

	@Override
	public AcquireResult tryAcquirePermit(String key, String ownerToken, Duration ttl, int permits) {
		AcquireResult result = this.permits.tryAcquire(key, ownerToken, ttl, permits, this.fencingCounterRetention,
				this.acknowledgement, this.publishCommand);
		if (result instanceof AcquireResult.Acquired) {
			this.scripts.loadOnce();
		}
		return checkedFencing(key, result);
	}

	/**
	 * Give back the permit and publish the release as {@link #release} does, which wakes
	 * one waiter of the key in each application.
	 */
	@Override
	public boolean releasePermit(String key, String ownerToken) {
		return this.permits.release(key, ownerToken, this.publishCommand);
	}

	/**
	 * Return the name of the sorted set holding the key's permits, which shares the key's
	 * hash slot and holds a control character, so it is no lock resource.
	 */
	@Override
	public String permitLeaseKey(String key) {
		return RedisLockKeys.of(key).permits();
	}

}
