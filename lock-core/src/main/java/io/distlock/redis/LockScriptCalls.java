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

import org.springframework.util.Assert;

/**
 * The script calls of a {@link RedisLockClient}: each call's keys and arguments, the
 * latter taking the settings that the client's setters change.
 */
final class LockScriptCalls {

	private String fencingCounterRetention = String
		.valueOf(RedisLockClient.DEFAULT_FENCING_COUNTER_RETENTION.toMillis());

	private ReplicaAcknowledgement acknowledgement = ReplicaAcknowledgement.NONE;

	private String publishCommand = "PUBLISH";

	private String writerWaitTimeout = String.valueOf(RedisLockClient.DEFAULT_WRITER_WAIT_TIMEOUT.toMillis());

	// ARGV[5] of acquire.lua.
	private String fencingTokensFromClock = "1";

	/**
	 * Check a fencing counter retention against the floor the fencing guarantee needs.
	 * @param retention the retention
	 * @return the retention in milliseconds, as a script argument
	 */
	static String checkedRetention(Duration retention) {
		Assert.notNull(retention, "'retention' must not be null");
		Duration floor = RedisLockClient.MIN_FENCING_COUNTER_RETENTION;
		Assert.isTrue(retention.compareTo(floor) >= 0,
				() -> "The fencing counter retention must be at least " + floor.toSeconds() + "s, but was "
						+ retention.toMillis() + "ms: a shorter one leaves fencing tokens to the clock "
						+ "alone (docs/safety.md)");
		return String.valueOf(retention.toMillis());
	}

	void setFencingCounterRetention(Duration retention) {
		this.fencingCounterRetention = checkedRetention(retention);
	}

	void setWriterWaitTimeout(Duration timeout) {
		Assert.isTrue(timeout != null && timeout.toMillis() > 1, "'timeout' must be longer than a millisecond");
		this.writerWaitTimeout = String.valueOf(timeout.toMillis());
	}

	void setShardedReleaseMessages(boolean sharded) {
		this.publishCommand = sharded ? "SPUBLISH" : "PUBLISH";
	}

	void setFencingTokensFromClock(boolean fromClock) {
		this.fencingTokensFromClock = fromClock ? "1" : "0";
	}

	void setReplicaAcknowledgement(int minReplicas, Duration timeout) {
		Assert.isTrue(minReplicas >= 0, "'minReplicas' must not be negative");
		this.acknowledgement = ReplicaAcknowledgement.of(minReplicas, timeout);
	}

	/**
	 * Return the fencing counter retention in milliseconds, as a script argument.
	 */
	String fencingCounterRetention() {
		return this.fencingCounterRetention;
	}

	ReplicaAcknowledgement acknowledgement() {
		return this.acknowledgement;
	}

	/**
	 * Return the command a release is published with: {@code PUBLISH} or
	 * {@code SPUBLISH}.
	 */
	String publishCommand() {
		return this.publishCommand;
	}

	@SuppressWarnings("rawtypes")
	ScriptCall<List> acquire(String key, String ownerToken, Duration ttl, boolean waits) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.ACQUIRE,
				List.of(keys.lock(), keys.fence(), keys.readHolds(), keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention, this.writerWaitTimeout,
						this.fencingTokensFromClock, waits ? "1" : "0" });
	}

	@SuppressWarnings("rawtypes")
	ScriptCall<List> acquireRead(String key, String ownerToken, Duration ttl, boolean waits) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.ACQUIRE_READ,
				List.of(keys.lock(), keys.fence(), keys.readHolds(), keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention, waits ? "1" : "0" });
	}

	@SuppressWarnings("rawtypes")
	ScriptCall<List> acquireFair(String key, String ownerToken, Duration ttl, Duration queueTimeout) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.ACQUIRE_FAIR,
				List.of(keys.lock(), keys.fence(), keys.queue(), keys.queueTimeouts(), keys.readHolds(),
						keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention,
						RedisCalls.millis(queueTimeout), keys.channel(), this.publishCommand, this.writerWaitTimeout });
	}

	@SuppressWarnings("rawtypes")
	ScriptCall<List> acquirePermit(String key, String ownerToken, Duration ttl, int permits) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.ACQUIRE_PERMIT, List.of(keys.permits(), keys.fence()), new String[] {
				ownerToken, RedisCalls.millis(ttl), this.fencingCounterRetention, String.valueOf(permits) });
	}

	/**
	 * Tell whether the owner holds the exclusive lock (a fair one too).
	 */
	ScriptCall<Long> held(String key, String ownerToken) {
		return new ScriptCall<>(LockScripts.HELD, List.of(RedisLockKeys.lockKey(key)), new String[] { ownerToken });
	}

	/**
	 * Tell whether the owner has a read hold of the key.
	 */
	ScriptCall<Long> readHeld(String key, String ownerToken) {
		return new ScriptCall<>(LockScripts.READ_HELD, List.of(RedisLockKeys.readHoldsOf(key)),
				new String[] { ownerToken });
	}

	/**
	 * Tell whether the owner holds one of the key's permits.
	 */
	ScriptCall<Long> permitHeld(String key, String ownerToken) {
		return new ScriptCall<>(LockScripts.PERMIT_HELD, List.of(RedisLockKeys.of(key).permits()),
				new String[] { ownerToken });
	}

	ScriptCall<Long> leaveQueue(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.LEAVE_QUEUE, List.of(keys.lock(), keys.queue(), keys.queueTimeouts()),
				new String[] { ownerToken, keys.channel(), this.publishCommand });
	}

	ScriptCall<Long> release(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.RELEASE,
				List.of(keys.lock(), keys.queue(), keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, keys.channel(), key, this.publishCommand });
	}

	/**
	 * Build the release of a read hold, passing the read holds and the fair queue, or the
	 * read holds alone while the lock's slot migrates.
	 */
	ScriptCall<Long> releaseRead(RedisLockKeys keys, String ownerToken, boolean readHoldsOnly) {
		return new ScriptCall<>(LockScripts.RELEASE_READ,
				readHoldsOnly ? List.of(keys.readHolds()) : List.of(keys.readHolds(), keys.queue()),
				new String[] { ownerToken, keys.channel(), keys.lock(), this.publishCommand });
	}

	@SuppressWarnings("rawtypes")
	ScriptCall<List> handover(String key, String ownerToken, String newOwnerToken, Duration ttl) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.HANDOVER,
				List.of(keys.lock(), keys.fence(), keys.queue(), keys.writerWaiting(), keys.waiters()),
				new String[] { ownerToken, newOwnerToken, RedisCalls.millis(ttl), this.fencingCounterRetention });
	}

	ScriptCall<Long> raiseFence(String key, String ownerToken, long fencingToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.RAISE_FENCE, List.of(keys.lock(), keys.fence()),
				new String[] { ownerToken, String.valueOf(fencingToken), this.fencingCounterRetention });
	}

	ScriptCall<Long> forceRelease(String key) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		return new ScriptCall<>(LockScripts.FORCE_RELEASE,
				List.of(keys.lock(), keys.queue(), keys.readHolds(), keys.writerWaiting(), keys.permits()),
				new String[] { keys.channel(), key, this.publishCommand });
	}

}
