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

package io.distlock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What to lock and how: the key, the lease time, how long to wait for a busy lock,
 * whether the lease is renewed while the lock is held, whether waiters get the lock in
 * arrival order, and whether it is held alone, shared with readers, or as one of a number
 * of permits.
 *
 * <pre class="code">
 * LockRequest.of("report:" + id, ttl, wait).withMode(LockMode.READ);
 * LockRequest.of("exports", ttl, wait).withPermits(5);
 * LockRequest.builder("nightly-report").ttl(ttl).waitTime(Duration.ZERO).name("reports").minHold(hold).build();
 * </pre>
 *
 * @param key the lock key, without the configured key prefix; any non-blank string of at
 * most {@value LockKeys#MAX_KEY_BYTES} bytes in UTF-8 without control characters
 * @param ttl the lease time: how long the lock outlives a holder that stops renewing it;
 * at least one millisecond and at most {@link #MAX_TTL}
 * @param waitTime how long to wait for a busy lock; zero means try once, and any length
 * is accepted: a wait of more than a hundred years waits as long as a hundred years
 * @param autoRenew whether the lease is renewed while the lock is held, so that
 * {@code ttl} only bounds how long a crashed holder blocks others
 * @param fair whether waiters get the lock in the order they asked for it, through a
 * queue in Redis, instead of whoever asks first after a release; slower, and fair only
 * among fair requests for the key
 * @param name what kind of lock this is, for metrics, traces and the {@code locks}
 * endpoint, such as {@code orders}: a name the code chooses, never data (unlike the key),
 * so that it is a bounded tag; empty when unnamed; at most {@value #MAX_NAME_LENGTH}
 * characters without control characters
 * @param mode how the key is held: {@link LockMode#EXCLUSIVE} (the default) and
 * {@link LockMode#WRITE} are the same lock, {@link LockMode#READ} shares the key with
 * other readers; fair requests are exclusive or write requests
 * @param permits how many holders the key may have at once across all applications: 1
 * (the default) is the plain lock; more makes the key a concurrency limit, each holder
 * with a lease of its own, in {@link LockMode#EXCLUSIVE} mode and not fair
 * @param minHold how long the lock stays held at least after it was acquired, even when
 * it is released sooner: a release before then shortens the lease to what remains of
 * {@code minHold} instead of deleting it, so that a job that finished early is not run
 * again at once by another instance; zero (the default) for none; at most
 * {@link #MAX_TTL}, and at most {@code ttl} without auto-renew
 */
public record LockRequest(String key, Duration ttl, Duration waitTime, boolean autoRenew, boolean fair, String name,
		LockMode mode, int permits, Duration minHold) {

	/**
	 * The longest name accepted, in characters.
	 */
	public static final int MAX_NAME_LENGTH = 100;

	/**
	 * The longest lease accepted: 365 days. Long enough for a fixed lease that keeps a
	 * yearly job from running twice; a longer one is no lease, since a crashed holder
	 * would block the key for more than a year. Every time computed from it (in
	 * nanoseconds, which overflow after 292 years, and the Redis expiry) stays far from
	 * overflowing.
	 */
	public static final Duration MAX_TTL = Duration.ofDays(365);

	/**
	 * The shortest ttl of a lock whose lease is renewed: 500 milliseconds. The lease is
	 * renewed every third of its ttl, so a renewal has the other two thirds (333ms here)
	 * to be sent, answered by the store and applied before the lease runs out: enough for
	 * a garbage-collection pause as long as G1's default pause goal (200ms), the
	 * renewer's second try after a tick that failed (100ms later) and round trips to the
	 * store. A shorter renewed lease is lost at the first such delay while its holder
	 * still runs, and another caller takes the key, so it is refused. A lease that is not
	 * renewed may be shorter: it is held for its ttl at most, as asked.
	 */
	public static final Duration MIN_RENEWED_TTL = Duration.ofMillis(500);

	private static final Duration MIN_TTL = Duration.ofMillis(1);

	/**
	 * Validate the request.
	 * @throws IllegalArgumentException naming the argument that is invalid
	 */
	public LockRequest {
		LockKeys.validate(key);
		Assert.isTrue(ttl != null, "'ttl' must not be null");
		Assert.isTrue(ttl.compareTo(MAX_TTL) <= 0,
				() -> "'ttl' must be at most " + MAX_TTL.toDays() + " days but was " + ttl);
		Assert.isTrue(ttl.compareTo(MIN_TTL) >= 0, () -> "'ttl' must be at least 1ms but was " + ttl);
		Assert.isTrue(waitTime != null, "'waitTime' must not be null");
		Assert.isTrue(!waitTime.isNegative(), () -> "'waitTime' must not be negative but was " + waitTime);
		Assert.isTrue(name != null, "'name' must not be null");
		Assert.isTrue(name.length() <= MAX_NAME_LENGTH && name.chars().noneMatch(Character::isISOControl),
				() -> "'name' must be at most " + MAX_NAME_LENGTH
						+ " characters without control characters, a name chosen by the code, not data");
		Assert.isTrue(mode != null, "'mode' must not be null");
		Assert.isTrue(permits >= 1, () -> "'permits' must be at least 1 but was " + permits);
		Assert.isTrue(!fair || mode != LockMode.READ,
				"A READ lock cannot be fair: fair requests queue for the exclusive (write) lock only");
		Assert.isTrue(permits == 1 || mode == LockMode.EXCLUSIVE, () -> "'permits' = " + permits
				+ " cannot be combined with mode " + mode + ": a concurrency limit is neither a read nor a write lock");
		Assert.isTrue(minHold != null, "'minHold' must not be null");
		Assert.isTrue(!minHold.isNegative(), () -> "'minHold' must not be negative but was " + minHold);
		Assert.isTrue(minHold.compareTo(MAX_TTL) <= 0,
				() -> "'minHold' must be at most " + MAX_TTL.toDays() + " days but was " + minHold);
		Assert.isTrue(autoRenew || minHold.compareTo(ttl) <= 0,
				() -> "'minHold' (" + minHold + ") must not be longer than 'ttl' (" + ttl
						+ ") without auto-renew: the lease would run out before it");
		Assert.isTrue(permits == 1 || !fair, () -> "'permits' = " + permits
				+ " cannot be combined with fair: permits are not handed out in " + "arrival order");
	}

	/**
	 * Create a request for a lock whose lease is renewed while held, not fair.
	 * @param key the lock key
	 * @param ttl the lease time
	 * @param waitTime how long to wait for a busy lock
	 * @return the request
	 */
	public static LockRequest of(String key, Duration ttl, Duration waitTime) {
		return new LockRequest(key, ttl, waitTime, true, false, "", LockMode.EXCLUSIVE, 1, Duration.ZERO);
	}

	/**
	 * Start building a request for the given key, validated once when built: the way to
	 * set several attributes at once without a copy per attribute.
	 * <p>
	 * {@link Builder#ttl(Duration) ttl} and {@link Builder#waitTime(Duration) waitTime}
	 * must be set; the other attributes default to those of {@link #of}: renewed, not
	 * fair, unnamed, {@link LockMode#EXCLUSIVE}, one permit and no minimum hold time.
	 * <pre class="code">
	 * LockRequest.builder("report:" + id).ttl(ttl).waitTime(wait).mode(LockMode.READ).name("reports").build();
	 * </pre>
	 * @param key the lock key
	 * @return a builder for a request for that key
	 */
	public static Builder builder(String key) {
		return new Builder(key);
	}

	/**
	 * Return a copy of this request with the given renewal setting.
	 * @param autoRenew whether the lease is renewed while the lock is held
	 * @return the new request
	 */
	public LockRequest withAutoRenew(boolean autoRenew) {
		return new LockRequest(this.key, this.ttl, this.waitTime, autoRenew, this.fair, this.name, this.mode,
				this.permits, this.minHold);
	}

	/**
	 * Return a copy of this request with the given fairness; off by default.
	 * @param fair whether waiters get the lock in arrival order
	 * @return the new request
	 */
	public LockRequest withFair(boolean fair) {
		return new LockRequest(this.key, this.ttl, this.waitTime, this.autoRenew, fair, this.name, this.mode,
				this.permits, this.minHold);
	}

	/**
	 * Return a copy of this request with the given name.
	 * @param name what kind of lock this is, for metrics, traces and the {@code locks}
	 * endpoint; empty for none
	 * @return the named request
	 * @throws IllegalArgumentException if the name is too long or holds a control
	 * character
	 */
	public LockRequest withName(String name) {
		return new LockRequest(this.key, this.ttl, this.waitTime, this.autoRenew, this.fair, name, this.mode,
				this.permits, this.minHold);
	}

	/**
	 * Return a copy of this request with the given mode; {@link LockMode#EXCLUSIVE} by
	 * default.
	 * @param mode how the key is held
	 * @return the new request
	 * @throws IllegalArgumentException if the mode cannot be combined with the request's
	 * fairness or permits
	 */
	public LockRequest withMode(LockMode mode) {
		return new LockRequest(this.key, this.ttl, this.waitTime, this.autoRenew, this.fair, this.name, mode,
				this.permits, this.minHold);
	}

	/**
	 * Return a copy of this request with the given number of permits: how many holders
	 * the key may have at once across all applications; 1 by default.
	 * @param permits the limit, at least 1
	 * @return the new request
	 * @throws IllegalArgumentException if {@code permits} is less than 1, or more than 1
	 * on a fair, read or write request
	 */
	public LockRequest withPermits(int permits) {
		return new LockRequest(this.key, this.ttl, this.waitTime, this.autoRenew, this.fair, this.name, this.mode,
				permits, this.minHold);
	}

	/**
	 * Return a copy of this request that keeps the lock held at least the given time
	 * after it was acquired, even when released sooner; none by default.
	 * @param minHold the minimum hold time, zero for none
	 * @return the new request
	 * @throws IllegalArgumentException if it is negative, or longer than the ttl of a
	 * request without auto-renew
	 */
	public LockRequest withMinHold(Duration minHold) {
		return new LockRequest(this.key, this.ttl, this.waitTime, this.autoRenew, this.fair, this.name, this.mode,
				this.permits, minHold);
	}

	/**
	 * A builder of a {@link LockRequest}, which validates the request once, when it is
	 * {@linkplain #build() built}. Not thread-safe; each {@link #build()} makes a new
	 * request from the attributes set so far.
	 *
	 * @see LockRequest#builder(String)
	 */
	public static final class Builder {

		private final String key;

		private @Nullable Duration ttl;

		private @Nullable Duration waitTime;

		private boolean autoRenew = true;

		private boolean fair;

		private String name = "";

		private LockMode mode = LockMode.EXCLUSIVE;

		private int permits = 1;

		private Duration minHold = Duration.ZERO;

		private Builder(String key) {
			this.key = key;
		}

		/**
		 * Set the lease time; required.
		 * @param ttl the lease time, as in {@link LockRequest#ttl()}
		 * @return this builder
		 */
		public Builder ttl(Duration ttl) {
			this.ttl = ttl;
			return this;
		}

		/**
		 * Set how long to wait for a busy lock; required, zero to try once.
		 * @param waitTime the wait time, as in {@link LockRequest#waitTime()}
		 * @return this builder
		 */
		public Builder waitTime(Duration waitTime) {
			this.waitTime = waitTime;
			return this;
		}

		/**
		 * Set whether the lease is renewed while the lock is held; {@code true} by
		 * default.
		 * @param autoRenew whether the lease is renewed
		 * @return this builder
		 */
		public Builder autoRenew(boolean autoRenew) {
			this.autoRenew = autoRenew;
			return this;
		}

		/**
		 * Set whether waiters get the lock in arrival order; {@code false} by default.
		 * @param fair whether the lock is fair
		 * @return this builder
		 */
		public Builder fair(boolean fair) {
			this.fair = fair;
			return this;
		}

		/**
		 * Set what kind of lock this is; empty (unnamed) by default.
		 * @param name the name, as in {@link LockRequest#name()}
		 * @return this builder
		 */
		public Builder name(String name) {
			this.name = name;
			return this;
		}

		/**
		 * Set how the key is held; {@link LockMode#EXCLUSIVE} by default.
		 * @param mode the lock mode
		 * @return this builder
		 */
		public Builder mode(LockMode mode) {
			this.mode = mode;
			return this;
		}

		/**
		 * Set how many holders the key may have at once; 1 by default.
		 * @param permits the limit, as in {@link LockRequest#permits()}
		 * @return this builder
		 */
		public Builder permits(int permits) {
			this.permits = permits;
			return this;
		}

		/**
		 * Set how long the lock stays held at least after it was acquired; zero (none) by
		 * default.
		 * @param minHold the minimum hold time, as in {@link LockRequest#minHold()}
		 * @return this builder
		 */
		public Builder minHold(Duration minHold) {
			this.minHold = minHold;
			return this;
		}

		/**
		 * Build and validate the request.
		 * @return the request
		 * @throws IllegalArgumentException naming the attribute that is invalid or not
		 * set
		 */
		public LockRequest build() {
			Duration ttl = this.ttl;
			Duration waitTime = this.waitTime;
			Assert.notNull(ttl, "'ttl' must not be null");
			Assert.notNull(waitTime, "'waitTime' must not be null");
			return new LockRequest(this.key, ttl, waitTime, this.autoRenew, this.fair, this.name, this.mode,
					this.permits, this.minHold);
		}

	}

}
