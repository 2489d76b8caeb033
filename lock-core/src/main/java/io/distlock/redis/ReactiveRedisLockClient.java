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
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.ReactiveLockClient;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.util.Assert;

/**
 * The {@link ReactiveLockClient} on one Redis master, or on Redis Cluster: the same Lua
 * scripts as {@link RedisLockClient}, sent without blocking through a
 * {@link ReactiveRedisConnectionFactory}, so that locks taken by either client exclude
 * each other.
 *
 * <p>
 * Uses string serialization only. A release is published on the lock's release channel,
 * as {@link RedisLockClient} does. A call that Redis does not answer within the command
 * timeout, or a Redis that cannot be reached, signals a {@link LockBackendException}.
 * Replica acknowledgement ({@code WAIT}) is not available here: it would hold up the
 * shared connection.
 */
public class ReactiveRedisLockClient implements ReactiveLockClient, InitializingBean {

	private static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(60);

	private static final Log logger = LogFactory.getLog(ReactiveRedisLockClient.class);

	// Only writers acquire here; this is how long one that found readers keeps them out.
	private static final String WRITER_WAIT_TIMEOUT = String
		.valueOf(RedisLockClient.DEFAULT_WRITER_WAIT_TIMEOUT.toMillis());

	private final ReactiveStringRedisTemplate redis;

	private final String server;

	private String fencingCounterRetention = String
		.valueOf(RedisLockClient.DEFAULT_FENCING_COUNTER_RETENTION.toMillis());

	private final FencingClockCheck fencingClock = new FencingClockCheck();

	private String publishCommand = "PUBLISH";

	private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;

	// Spring Data opens the shared connection on the thread of the first call, and
	// waits for it there: until it is open, calls start on a thread that may wait.
	private volatile boolean connected;

	/**
	 * Create a client on the given connection factory.
	 * @param connectionFactory the reactive Redis connection factory
	 */
	public ReactiveRedisLockClient(ReactiveRedisConnectionFactory connectionFactory) {
		Assert.notNull(connectionFactory, "'connectionFactory' must not be null");
		this.redis = new ReactiveStringRedisTemplate(connectionFactory);
		this.server = RedisAddress.describeWithTimeout(connectionFactory);
		// Read the scripts now, not on the event loop of the first acquisition.
		Assert.state(!LockScripts.ALL.isEmpty(), "No lock scripts");
	}

	/**
	 * Set how long a key's fencing counter is kept after the key was last acquired; use
	 * the same value as for the {@link RedisLockClient} of the application.
	 * @param retention the retention, ten minutes by default
	 * @see RedisLockClient#setFencingCounterRetention(Duration)
	 */
	public void setFencingCounterRetention(Duration retention) {
		this.fencingCounterRetention = LockScriptCalls.checkedRetention(retention);
	}

	/**
	 * Publish releases on sharded channels ({@code SPUBLISH}), as
	 * {@link RedisLockClient#setShardedReleaseMessages(boolean)} does.
	 * @param sharded whether to publish on sharded channels; {@code false} by default
	 */
	public void setShardedReleaseMessages(boolean sharded) {
		this.publishCommand = sharded ? "SPUBLISH" : "PUBLISH";
	}

	/**
	 * Set how long a call may take before it fails with a {@link LockBackendException}:
	 * the command timeout of the connection factory, so that a call fails in bounded time
	 * even when the driver does not time out reactive commands itself.
	 * @param commandTimeout the timeout, one minute by default
	 */
	public void setCommandTimeout(Duration commandTimeout) {
		Assert.isTrue(commandTimeout != null && commandTimeout.toMillis() > 0, "'commandTimeout' must be positive");
		this.commandTimeout = commandTimeout;
	}

	/**
	 * Open the connection ahead of the first lock, in the background, so that no
	 * event-loop thread waits for the connection handshake: Spring Data opens the shared
	 * connection, blocking, on the thread of its first use. A Redis that is down now is
	 * connected to on first use, from a thread that may block.
	 */
	@Override
	public void afterPropertiesSet() {
		this.redis.execute((connection) -> connection.ping())
			.next()
			.subscribeOn(Schedulers.boundedElastic())
			.subscribe((pong) -> this.connected = true,
					(ex) -> logger.debug("Could not connect ahead of the first reactive lock", ex));
	}

	@Override
	public Mono<AcquireResult> tryAcquire(String key, String ownerToken, Duration ttl) {
		return tryAcquire(key, ownerToken, ttl, true);
	}

	/**
	 * Take the lock as {@link #tryAcquire} does, without announcing the attempt to the
	 * holder when the lock is busy, as {@link RedisLockClient#tryAcquireOnce} does.
	 */
	@Override
	public Mono<AcquireResult> tryAcquireOnce(String key, String ownerToken, Duration ttl) {
		return tryAcquire(key, ownerToken, ttl, false);
	}

	/**
	 * Return the largest lead of a fencing token over the Redis clock that this client
	 * was handed, as {@link RedisLockClient#getLargestFencingLead()} does.
	 * @return the largest lead seen
	 */
	public Duration getLargestFencingLead() {
		return this.fencingClock.largest();
	}

	private Mono<AcquireResult> tryAcquire(String key, String ownerToken, Duration ttl, boolean waits) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return call(key, "acquire",
				this.redis
					.execute(LockScripts.ACQUIRE,
							List.of(keys.lock(), keys.fence(), keys.readHolds(), keys.writerWaiting(), keys.waiters()),
							List.of(ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention,
									WRITER_WAIT_TIMEOUT, "1", waits ? "1" : "0"))
					.next())
			.map(RedisCalls::acquireResult)
			.map((result) -> {
				this.fencingClock.check(key, result, Long.parseLong(this.fencingCounterRetention));
				return result;
			})
			// Refused before it ran: nothing was taken; worth trying again shortly.
			.onErrorResume((ex) -> RedisCalls.isRedisError(ex, "TRYAGAIN"),
					(ex) -> Mono.just(new AcquireResult.NotConfirmed(SlotMigrationRetry.MIGRATING)));
	}

	/**
	 * Release the lock and publish the release, so that waiters wake up. While the lock's
	 * slot migrates between cluster nodes the release is tried again for up to two
	 * seconds, on timers.
	 */
	@Override
	public Mono<Boolean> release(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return call(key, "release", this.redis
			.execute(LockScripts.RELEASE, List.of(keys.lock(), keys.queue(), keys.writerWaiting(), keys.waiters()),
					List.of(ownerToken, keys.channel(), key, this.publishCommand))
			.next())
			// About two seconds: 10ms doubling to 100ms.
			.retryWhen(Retry.backoff(24, Duration.ofMillis(10))
				.maxBackoff(Duration.ofMillis(100))
				.jitter(0)
				.filter((ex) -> RedisCalls.isRedisError(ex, "TRYAGAIN"))
				.onRetryExhaustedThrow((spec, signal) -> signal.failure()))
			.map((released) -> released == 1L);
	}

	private <T> Mono<T> call(String key, String operation, Mono<T> command) {
		Mono<T> connecting = this.connected ? command
				: command.subscribeOn(Schedulers.boundedElastic()).doOnSuccess((reply) -> this.connected = true);
		return connecting.timeout(this.commandTimeout)
			.switchIfEmpty(
					Mono.error(() -> new IllegalStateException("Redis gave no reply to the " + operation + " script")))
			.onErrorMap((ex) -> !(ex instanceof LockBackendException),
					(ex) -> (ex instanceof TimeoutException)
							? new LockBackendException(key,
									"Redis did not answer the " + operation + " of lock '" + key + "' within "
											+ this.commandTimeout.toMillis() + "ms (" + this.server + ")",
									ex)
							: RedisCalls.failure(key, operation, ex, this.server));
	}

}
