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

import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.store.HandoverLockClient.Declined;
import io.distlock.store.HandoverLockClient.HandedOver;
import io.distlock.store.HandoverLockClient.Handover;
import io.distlock.store.HandoverLockClient.NotHeld;

/**
 * The calls of a {@link RedisLockClient} on a lock that was taken: release, renewal, the
 * holder check, the hand-over and the forced release of a lock, release, renewal and the
 * holder check of a read hold, and release and the holder check of a permit. Each touches
 * one key where it can, so that Redis Cluster runs it on whichever node holds the key
 * while its slot migrates.
 *
 * <p>
 * A key's permits are a sorted set, at {@link RedisLockKeys#permits()}, of the holders'
 * owner tokens scored by when each lease expires; they renew through
 * {@link RenewalBatches}, with the other leases.
 */
final class RedisLeases {

	private final ScriptRunner redis;

	private final LockScriptCalls calls;

	RedisLeases(ScriptRunner redis, LockScriptCalls calls) {
		this.redis = redis;
		this.calls = calls;
	}

	/**
	 * Release the lock, passing the lock key alone while its slot migrates.
	 */
	boolean release(String key, String ownerToken) {
		ScriptCall<Long> call = this.calls.release(key, ownerToken);
		// The same call with the lock key alone (the first key), for a migrating slot.
		ScriptCall<Long> lockKeyOnly = new ScriptCall<>(LockScripts.RELEASE, call.keys().subList(0, 1), call.args());
		Long released = SlotMigrationRetry.orOneKey(() -> RedisCalls.call(key, "release", () -> call.run(this.redis)),
				() -> RedisCalls.call(key, "release", () -> lockKeyOnly.run(this.redis)));
		return RedisCalls.reply(released, "release") == 1L;
	}

	/**
	 * Release a read hold, passing the read holds alone while the lock's slot migrates.
	 */
	boolean releaseRead(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long released = SlotMigrationRetry.orOneKey(() -> releaseRead(keys, ownerToken, false),
				() -> releaseRead(keys, ownerToken, true));
		return RedisCalls.reply(released, "release-read") == 1L;
	}

	private @Nullable Long releaseRead(RedisLockKeys keys, String ownerToken, boolean readHoldsOnly) {
		ScriptCall<Long> call = this.calls.releaseRead(keys, ownerToken, readHoldsOnly);
		return RedisCalls.call(keys.lock(), "release the read hold of", () -> call.run(this.redis));
	}

	/**
	 * Renew the owner's lock or, when it holds no lock there, its read hold.
	 */
	boolean renew(String key, String ownerToken, Duration ttl) {
		String millis = RedisCalls.millis(ttl);
		return renew(key, RedisLockKeys.lockKey(key), ownerToken, millis)
				|| renew(key, RedisLockKeys.readHoldsOf(key), ownerToken, millis, "read");
	}

	private boolean renew(String key, String lease, String ownerToken, String... args) {
		ReplicaAcknowledgement acknowledgement = this.calls.acknowledgement();
		String[] scriptArgs = new String[args.length + 1];
		scriptArgs[0] = ownerToken;
		System.arraycopy(args, 0, scriptArgs, 1, args.length);
		ReplicaAcknowledgement.Acknowledged<Long> renewed = RedisCalls.reply(RedisCalls.call(key, "renew",
				() -> acknowledgement.run(this.redis, LockScripts.RENEW, List.of(lease), scriptArgs)), "renew");
		boolean held = Long.valueOf(1L).equals(renewed.reply());
		if (held && acknowledgement.isShort(renewed)) {
			throw new LockBackendException(key,
					"Renewal of lock '" + key + "' was " + acknowledgement.shortfall(renewed.replicas()), null);
		}
		return held;
	}

	/**
	 * Check the lock key and, only when the owner does not hold the lock, its read hold.
	 */
	boolean isHeld(String key, String ownerToken) {
		return isHeld(key, "check", LockScripts.HELD, RedisLockKeys.lockKey(key), ownerToken) || isHeld(key,
				"check the read hold of", LockScripts.READ_HELD, RedisLockKeys.readHoldsOf(key), ownerToken);
	}

	private boolean isHeld(String key, String what, LockScript<Long> script, String lease, String ownerToken) {
		Long held = RedisCalls.call(key, what, () -> this.redis.run(script, List.of(lease), ownerToken));
		return held != null && held == 1L;
	}

	/**
	 * Hand the lock over, declining whenever replicas must acknowledge.
	 */
	Handover handOver(String key, String ownerToken, String newOwnerToken, Duration ttl) {
		if (this.calls.acknowledgement() != ReplicaAcknowledgement.NONE) {
			return new Declined();
		}
		@SuppressWarnings("rawtypes")
		ScriptCall<List> call = this.calls.handover(key, ownerToken, newOwnerToken, ttl);
		List<?> reply = RedisCalls.reply(RedisCalls.call(key, "hand over", () -> call.run(this.redis)), "handover");
		long outcome = (Long) reply.get(0);
		if (outcome == 1L) {
			return new HandedOver((Long) reply.get(1));
		}
		return (outcome == 0L) ? new Declined() : new NotHeld();
	}

	/**
	 * Delete the lock key, the read holds, the writer-waiting marker and the permits, and
	 * publish the release, tried again for a while during a slot migration.
	 */
	boolean forceRelease(String key) {
		ScriptCall<Long> call = this.calls.forceRelease(key);
		Long removed = SlotMigrationRetry.call(() -> RedisCalls.call(key, "force-release", () -> call.run(this.redis)));
		return RedisCalls.reply(removed, "force-release") == 1L;
	}

	/**
	 * Give back the owner's permit and publish the release, tried again for a while
	 * during a slot migration as {@link RedisLockClient#release} is.
	 */
	boolean releasePermit(String key, String ownerToken) {
		RedisLockKeys keys = RedisLockKeys.of(key);
		Long released = SlotMigrationRetry
			.call(() -> RedisCalls.call(key, "release a permit of", () -> this.redis.run(LockScripts.RELEASE_PERMIT,
					List.of(keys.permits()), ownerToken, keys.channel(), key, this.calls.publishCommand())));
		return RedisCalls.reply(released, "release-permit") == 1L;
	}

	/**
	 * Tell whether the owner's permit lease has not expired, by the Redis clock.
	 */
	boolean isPermitHeld(String key, String ownerToken) {
		String permits = RedisLockKeys.of(key).permits();
		Long held = RedisCalls.call(key, "check a permit of",
				() -> this.redis.run(LockScripts.PERMIT_HELD, List.of(permits), ownerToken));
		return RedisCalls.reply(held, "permit-held") == 1L;
	}

	boolean leaveQueue(String key, String ownerToken) {
		ScriptCall<Long> call = this.calls.leaveQueue(key, ownerToken);
		Long left = SlotMigrationRetry
			.call(() -> RedisCalls.call(key, "leave the queue of", () -> call.run(this.redis)));
		return RedisCalls.reply(left, "leave-queue") == 1L;
	}

	boolean raiseFencingToken(String key, String ownerToken, long fencingToken) {
		ScriptCall<Long> call = this.calls.raiseFence(key, ownerToken, fencingToken);
		Long raised = RedisCalls.call(key, "raise the fencing token of", () -> call.run(this.redis));
		return raised != null && raised == 1L;
	}

}
