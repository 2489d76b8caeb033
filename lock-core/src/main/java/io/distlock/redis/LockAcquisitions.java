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

import io.distlock.store.AcquireResult;

import org.springframework.util.Assert;

/**
 * Runs the acquire scripts of a {@link RedisLockClient} (exclusive, read, fair and
 * permit): gives back a lock the replicas did not acknowledge in time, loads the other
 * scripts once a lock was taken, and looks at every fencing token handed out for a lead
 * over the Redis clock.
 */
final class LockAcquisitions {

	private final ScriptRunner redis;

	private final LockScriptCalls calls;

	private final ScriptPreloader scripts;

	private final FencingClockCheck fencingClock = new FencingClockCheck();

	LockAcquisitions(ScriptRunner redis, LockScriptCalls calls) {
		this.redis = redis;
		this.calls = calls;
		this.scripts = new ScriptPreloader(redis);
	}

	/**
	 * Load the lock scripts ahead of the first lock: see {@link ScriptPreloader}.
	 */
	void preload() {
		this.scripts.loadOnce();
	}

	/**
	 * Take the lock, announcing a refused attempt only when the caller waits.
	 * @param giveBack releases the lock when the replicas did not acknowledge it
	 */
	AcquireResult exclusive(String key, String ownerToken, Duration ttl, boolean waits, Runnable giveBack) {
		return run(key, "acquire", this.calls.acquire(key, ownerToken, ttl, waits), this.calls.held(key, ownerToken),
				giveBack);
	}

	/**
	 * Take a read hold, announcing a refused attempt only when the caller waits.
	 * @param giveBack releases the hold when the replicas did not acknowledge it
	 */
	AcquireResult read(String key, String ownerToken, Duration ttl, boolean waits, Runnable giveBack) {
		return run(key, "acquire", this.calls.acquireRead(key, ownerToken, ttl, waits),
				this.calls.readHeld(key, ownerToken), giveBack);
	}

	/**
	 * Take the lock in arrival order, queueing the owner for a place.
	 * @param giveBack releases the lock when the replicas did not acknowledge it
	 */
	AcquireResult fair(String key, String ownerToken, Duration ttl, Duration queueTimeout, Runnable giveBack) {
		return run(key, "acquire", this.calls.acquireFair(key, ownerToken, ttl, queueTimeout),
				this.calls.held(key, ownerToken), giveBack);
	}

	/**
	 * Take a permit of the given number the key has.
	 * @param giveBack releases the permit when the replicas did not acknowledge it
	 */
	AcquireResult permit(String key, String ownerToken, Duration ttl, int permits, Runnable giveBack) {
		Assert.isTrue(permits >= 1, () -> "'permits' must be at least 1, but was " + permits);
		return run(key, "acquire a permit of", this.calls.acquirePermit(key, ownerToken, ttl, permits),
				this.calls.permitHeld(key, ownerToken), giveBack);
	}

	/**
	 * Run an acquire script, giving back with the given release what the replicas did not
	 * acknowledge in time, or what the server that answered for them does not hold.
	 */
	@SuppressWarnings("rawtypes")
	private AcquireResult run(String key, String operation, ScriptCall<List> call, ScriptCall<Long> held,
			Runnable giveBack) {
		return granted(key, this.calls.acknowledgement().acquire(this.redis, key, operation, call, held, giveBack));
	}

	/**
	 * Take note of an acquisition's result: load the other scripts once a lock was taken,
	 * and check its fencing token.
	 */
	AcquireResult granted(String key, AcquireResult result) {
		if (result instanceof AcquireResult.Acquired) {
			this.scripts.loadOnce();
		}
		return checkedFencing(key, result);
	}

	/**
	 * Look at a fencing token this client was handed: see {@link FencingClockCheck}.
	 */
	AcquireResult checkedFencing(String key, AcquireResult result) {
		this.fencingClock.check(key, result, Long.parseLong(this.calls.fencingCounterRetention()));
		return result;
	}

	/**
	 * Return the largest lead of a fencing token over the Redis clock seen so far.
	 */
	Duration largestFencingLead() {
		return this.fencingClock.largest();
	}

}
