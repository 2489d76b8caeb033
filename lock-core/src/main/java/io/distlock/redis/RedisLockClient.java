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

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.AsyncFencingLockCalls;
import io.distlock.store.FairLockClient;
import io.distlock.store.HandoverLockClient;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockState;
import io.distlock.store.PermitLockClient;
import io.distlock.store.RaisableFencingLockClient;
import io.distlock.store.ReadWriteLockClient;
import io.distlock.store.Renewal;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * The {@link io.distlock.store.LockClient LockClient} on one Redis master, or on Redis
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
 * Uses string serialization only. On a Lettuce factory of one Redis or of a Sentinel
 * master, the scripts run on a connection of their own from the factory's client;
 * elsewhere (Jedis, Cluster, static replicas) on the template's connections. How long an
 * operation may take is bounded by the command timeout of the connection factory
 * ({@code spring.data.redis.timeout}); when it passes, or Redis cannot be reached, a
 * {@link LockBackendException} is thrown.
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

	private final LockScriptCalls calls = new LockScriptCalls();

	private final LockAcquisitions acquisitions;

	private final RedisLockInspection inspection;

	private final RenewalBatches renewals;

	private final LeaseRouter router;

	private final LazyAsyncLockCalls asyncCalls;

	private final RedisLeases leases;

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
		ScriptRunner scripts = new ScriptRunner(redis);
		this.acquisitions = new LockAcquisitions(scripts, this.calls);
		this.inspection = new RedisLockInspection(scripts);
		this.leases = new RedisLeases(scripts, this.calls);
		this.asyncCalls = new LazyAsyncLockCalls(this.calls, this.acquisitions, redis);
		this.renewals = new RenewalBatches(scripts);
		this.router = new LeaseRouter(this.leases, this::releasePermit, this::renewAll);
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
		this.calls.setFencingCounterRetention(retention);
	}

	/**
	 * Return the largest lead of a fencing token over the Redis clock that this client
	 * was handed, the run-time check of the fencing guarantee's assumption on clocks
	 * (docs/safety.md): zero while tokens come from the clock. A lead appears after the
	 * clock stepped back or after a failover to a server whose clock is behind the former
	 * primary's; one above a second is logged as a warning: the first, and again each
	 * time one is larger than the lead last logged.
	 * @return the largest lead seen
	 */
	public Duration getLargestFencingLead() {
		return this.acquisitions.largestFencingLead();
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
		this.calls.setWriterWaitTimeout(timeout);
	}

	/**
	 * Publish releases on sharded channels ({@code SPUBLISH}, Redis 7 and later), which
	 * only the nodes serving the lock's slot carry, instead of classic channels, which
	 * Redis Cluster broadcasts to every node. Set it when the release notifier subscribes
	 * with {@code SSUBSCRIBE}, as {@link RedisReleaseNotifier#sharded} does; Redis before
	 * 7 gets classic messages all the same.
	 * @param sharded whether to publish on sharded channels; {@code false} by default
	 */
	public void setShardedReleaseMessages(boolean sharded) {
		this.calls.setShardedReleaseMessages(sharded);
	}

	/**
	 * Set whether every fencing token takes the Redis clock, as by default: a token is
	 * then the larger of the clock in microseconds and the key's last token + 1, so that
	 * tokens keep increasing across a failover to a replica that missed the last ones.
	 * Without, a token is the key's counter incremented, but never below the clock
	 * rounded down to a tenth of a second (so the clock starts a counter that is gone,
	 * and a counter restored from an older snapshot cannot undercut the tokens of the
	 * time since): one Redis command less, right only for masters that no replica ever
	 * replaces. Redlock's nodes are such masters, and there it keeps their counters in
	 * step, so that a lock need not raise them; {@link io.distlock.redlock.RedlockNodes}
	 * turns it off. Applies to exclusive locks taken without the fair queue.
	 * @param fromClock whether tokens take the clock; {@code true} by default
	 */
	public void setFencingTokensFromClock(boolean fromClock) {
		this.calls.setFencingTokensFromClock(fromClock);
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
		this.calls.setReplicaAcknowledgement(minReplicas, timeout);
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
		this.acquisitions.preload();
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

	private AcquireResult tryAcquire(String key, String ownerToken, Duration ttl, boolean waits) {
		return this.acquisitions.exclusive(key, ownerToken, ttl, waits, () -> release(key, ownerToken));
	}

	@Override
	public AcquireResult tryAcquireRead(String key, String ownerToken, Duration ttl) {
		return this.acquisitions.read(key, ownerToken, ttl, true, () -> releaseRead(key, ownerToken));
	}

	@Override
	public AcquireResult tryAcquireReadOnce(String key, String ownerToken, Duration ttl) {
		return this.acquisitions.read(key, ownerToken, ttl, false, () -> releaseRead(key, ownerToken));
	}

	@Override
	public AcquireResult tryAcquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		return this.acquisitions.fair(key, ownerToken, ttl, queueTimeout, () -> release(key, ownerToken));
	}

	@Override
	public boolean leaveQueue(String key, String ownerToken) {
		return this.leases.leaveQueue(key, ownerToken);
	}

	/**
	 * Release the lock and publish the release, so that waiters wake up: see
	 * {@link RedisReleaseNotifier}. While the lock's slot migrates between cluster nodes
	 * and Redis refuses the script for a missing key, the release passes the lock key
	 * alone, and publishes unconditionally.
	 */
	@Override
	public boolean release(String key, String ownerToken) {
		return this.router.release(key, ownerToken);
	}

	/**
	 * Hand the lock over in one script call, declining while anyone announced that it
	 * waits, fair waiters queue or a writer waits for readers. With replica
	 * acknowledgement set, every hand-over is declined: a new owner must be acknowledged
	 * as an acquisition is, which a hand-over does not wait for.
	 */
	@Override
	public Handover handOver(String key, String ownerToken, String newOwnerToken, Duration ttl) {
		return this.leases.handOver(key, ownerToken, newOwnerToken, ttl);
	}

	/**
	 * Release a read hold and, when it was the last, publish the release as
	 * {@link #release} does, so that a waiting writer wakes up. While the lock's slot
	 * migrates between cluster nodes and Redis refuses the script for a missing key, the
	 * release passes the read holds alone, and publishes the resource name.
	 */
	@Override
	public boolean releaseRead(String key, String ownerToken) {
		return this.leases.releaseRead(key, ownerToken);
	}

	/**
	 * Renew the lock of the owner or, when it holds no lock there, its read hold of the
	 * key: one key per call, the one that exists for that kind, so that Redis Cluster
	 * runs the renewal on whichever node holds the key while its slot migrates. Renewing
	 * a write lease costs what it did before read holds existed.
	 */
	@Override
	public boolean renew(String key, String ownerToken, Duration ttl) {
		return this.router.renew(key, ownerToken, ttl);
	}

	/**
	 * Renew the leases with one script call per batch of up to
	 * {@value #MAX_RENEWAL_BATCH}, grouped by hash slot on Redis Cluster. Each lease is
	 * judged on its own, so a lock key overwritten with another type is reported lost
	 * without failing the others.
	 */
	@Override
	public boolean[] renewAll(List<Renewal> renewals) {
		return this.renewals.renewAll(renewals, this.calls.acknowledgement());
	}

	@Override
	public boolean raiseFencingToken(String key, String ownerToken, long fencingToken) {
		return this.leases.raiseFencingToken(key, ownerToken, fencingToken);
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
		if (this.calls.acknowledgement() != ReplicaAcknowledgement.NONE) {
			return Optional.empty();
		}
		return Optional.ofNullable(this.asyncCalls.get());
	}

	/**
	 * Read the lock key, its fencing counter, its fair queue, its read holds and its
	 * permits in one script call. The holder is named by the first 16 hex digits of the
	 * SHA-1 of its owner token, taken in Redis, so the token itself never leaves it;
	 * readers and permit holders are only counted.
	 */
	@Override
	public LockState inspect(String key) {
		return this.inspection.inspect(key);
	}

	/**
	 * Delete the lock key, the read holds, the writer-waiting marker and the permits of
	 * the key, and publish the release as {@link #release} does, leaving the fencing
	 * counter and the fair queue as they are: the first fair waiter is woken and the
	 * others follow in order.
	 */
	@Override
	public boolean forceRelease(String key) {
		return this.leases.forceRelease(key);
	}

	/**
	 * Check the lock key and, only when the owner does not hold the lock, look for its
	 * read hold with a second call. Each is a script, so that it runs on the primary even
	 * when the connection factory reads from replicas, which may lag behind.
	 */
	@Override
	public boolean isHeld(String key, String ownerToken) {
		return this.router.isHeld(key, ownerToken);
	}

	@Override
	public AcquireResult tryAcquirePermit(String key, String ownerToken, Duration ttl, int permits) {
		return this.acquisitions.permit(key, ownerToken, ttl, permits,
				() -> this.leases.releasePermit(key, ownerToken));
	}

	/**
	 * Give back the permit and publish the release as {@link #release} does, which wakes
	 * one waiter of the key in each application.
	 */
	@Override
	public boolean releasePermit(String key, String ownerToken) {
		return this.leases.releasePermit(key, ownerToken);
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
