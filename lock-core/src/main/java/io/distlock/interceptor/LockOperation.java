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

package io.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockRequest;
import io.distlock.MultiLockRequest;
import io.distlock.annotation.LockFailurePolicy;
import io.distlock.annotation.LockMode;

import org.springframework.util.Assert;

/**
 * The validated definition of one {@code @DistributedLocked} method: its attributes
 * parsed, placeholders resolved and defaults applied.
 *
 * @see LockOperationSource
 */
public final class LockOperation {

	private final Method method;

	private final String name;

	private final KeyExpression key;

	private final Duration ttl;

	private final Duration waitTime;

	private final boolean autoRenew;

	private final boolean fair;

	private final LockFailurePolicy onFailure;

	private final @Nullable Method fallback;

	private final Shape shape;

	private final String lockName;

	private final List<KeyExpression> keys;

	private final LockMode mode;

	private final int permits;

	private final Duration minHold;

	private LockOperation(Builder builder) {
		Assert.notNull(builder.key, "'key' must not be null");
		Assert.notNull(builder.ttl, "'ttl' must not be null");
		Assert.notNull(builder.waitTime, "'waitTime' must not be null");
		Assert.notNull(builder.lockName, "'lockName' must not be null");
		this.method = builder.method;
		this.name = builder.name;
		this.key = builder.key;
		this.keys = List.copyOf(builder.keys);
		this.mode = builder.mode;
		this.permits = builder.permits;
		this.ttl = builder.ttl;
		this.waitTime = builder.waitTime;
		this.minHold = builder.minHold;
		this.autoRenew = builder.autoRenew;
		this.fair = builder.fair;
		this.onFailure = builder.onFailure;
		this.fallback = builder.fallback;
		this.shape = builder.shape;
		this.lockName = builder.lockName;
	}

	/**
	 * Start building the operation of the given method. The key expression, ttl, wait
	 * time and lock name must be set; the other attributes default to a blocking,
	 * renewed, unfair, unnamed exclusive lock on one key, with one permit, no minimum
	 * hold time and {@link LockFailurePolicy#THROW}.
	 * @param method the annotated method
	 * @return a builder
	 */
	static Builder builder(Method method) {
		return new Builder(method);
	}

	/**
	 * Return the annotated method.
	 * @return the method
	 */
	public Method method() {
		return this.method;
	}

	/**
	 * Return the lock name.
	 * @return the name, or empty
	 */
	public String name() {
		return this.name;
	}

	KeyExpression key() {
		return this.key;
	}

	/**
	 * Return the key expressions of a method that locks several keys.
	 * @return the expressions, empty when the method locks one key
	 */
	List<KeyExpression> keys() {
		return this.keys;
	}

	/**
	 * Return whether the method locks several keys at once ({@code keys}).
	 * @return whether the lock is a multi-key lock
	 */
	public boolean multiKey() {
		return !this.keys.isEmpty();
	}

	/**
	 * Return how the key is held.
	 * @return the lock mode
	 */
	public LockMode mode() {
		return this.mode;
	}

	/**
	 * Return how many callers may hold the key at once.
	 * @return the number of permits, 1 for a plain lock
	 */
	public int permits() {
		return this.permits;
	}

	/**
	 * Return the lease time.
	 * @return the ttl
	 */
	public Duration ttl() {
		return this.ttl;
	}

	/**
	 * Return how long to wait for a busy lock.
	 * @return the wait time
	 */
	public Duration waitTime() {
		return this.waitTime;
	}

	/**
	 * Return how long the lock stays held at least after it was acquired.
	 * @return the minimum hold time, zero for none
	 */
	public Duration minHold() {
		return this.minHold;
	}

	/**
	 * Return whether the lease is renewed while the method runs.
	 * @return whether auto-renewed
	 */
	public boolean autoRenew() {
		return this.autoRenew;
	}

	/**
	 * Return whether waiters get the lock in arrival order.
	 * @return whether fair
	 */
	public boolean fair() {
		return this.fair;
	}

	/**
	 * Return what to do when the lock stays busy, with the default decided for the
	 * method: never {@link LockFailurePolicy#DEFAULT}.
	 * @return the failure policy
	 */
	public LockFailurePolicy onFailure() {
		return this.onFailure;
	}

	/**
	 * Return the fallback method, for {@link LockFailurePolicy#FALLBACK}.
	 * @return the fallback method, or {@code null}
	 */
	public @Nullable Method fallback() {
		return this.fallback;
	}

	/**
	 * Return whether the method returns a {@code CompletableFuture} or
	 * {@code CompletionStage}, whose lock is held until that stage completes rather than
	 * until the method returns; decided once, when the method is parsed.
	 * @return whether the method's work is asynchronous
	 * @see io.distlock.LockTemplate#executeAsync(io.distlock.LockRequest,
	 * io.distlock.LockCallback, io.distlock.LockBusyCallback)
	 */
	public boolean async() {
		return this.shape == Shape.STAGE;
	}

	/**
	 * Return whether the method returns a {@code Mono} or a {@code Flux}, or is a Kotlin
	 * {@code suspend} function, whose lock is taken on subscription and held until the
	 * publisher terminates; decided once, when the method is parsed.
	 * @return whether the method's work is reactive
	 * @see io.distlock.reactive.ReactiveLockTemplate
	 */
	public boolean reactive() {
		return this.shape == Shape.MONO || this.shape == Shape.FLUX;
	}

	Shape shape() {
		return this.shape;
	}

	/**
	 * Return the name the locks of this method are known by in metrics, traces and the
	 * {@code locks} endpoint: the annotation's {@code name}, or
	 * {@code ClassName.methodName} without one; bounded by the code, never by data.
	 * @return the lock name
	 */
	public String lockName() {
		return this.lockName;
	}

	/**
	 * Return the lock key for an evaluated key: {@code <name>:<key>}, or the key alone
	 * without a name.
	 * @param evaluatedKey the key expression's value for one call
	 * @return the lock key, without the key prefix
	 */
	public String lockKey(String evaluatedKey) {
		return this.name.isEmpty() ? evaluatedKey : this.name + ":" + evaluatedKey;
	}

	/**
	 * Return the request for one call of a method that locks one key, with this
	 * operation's settings, validated once.
	 * @param lockKey the lock key, as {@linkplain #lockKey(String) made} from the
	 * evaluated key
	 * @return the request
	 * @throws IllegalArgumentException if the key is not a valid lock key
	 */
	LockRequest toRequest(String lockKey) {
		return LockRequest.builder(lockKey)
			.ttl(this.ttl)
			.waitTime(this.waitTime)
			.autoRenew(this.autoRenew)
			.fair(this.fair)
			.name(this.lockName)
			.mode(this.mode)
			.permits(this.permits)
			.minHold(this.minHold)
			.build();
	}

	/**
	 * Return the request for one call of a method that locks several keys ({@code keys}),
	 * with this operation's settings.
	 * @param lockKeys the lock keys, each as {@linkplain #lockKey(String) made} from an
	 * evaluated key
	 * @return the request
	 * @throws IllegalArgumentException if a key is not a valid lock key, or there are
	 * none or too many
	 */
	MultiLockRequest toMultiLockRequest(List<String> lockKeys) {
		return new MultiLockRequest(lockKeys, this.ttl, this.waitTime, this.autoRenew, this.mode, this.lockName);
	}

	@Override
	public String toString() {
		return "LockOperation[" + this.method + ", name='" + this.name + "', key="
				+ (this.keys.isEmpty() ? this.key : this.keys) + ", mode=" + this.mode + ", permits=" + this.permits
				+ ", ttl=" + this.ttl + ", waitTime=" + this.waitTime + ", autoRenew=" + this.autoRenew + ", fair="
				+ this.fair + ", onFailure=" + this.onFailure + ", shape=" + this.shape + "]";
	}

	/**
	 * A builder of a {@link LockOperation}, for the parser.
	 */
	static final class Builder {

		private final Method method;

		private String name = "";

		private @Nullable KeyExpression key;

		private List<KeyExpression> keys = List.of();

		private LockMode mode = LockMode.EXCLUSIVE;

		private int permits = 1;

		private @Nullable Duration ttl;

		private @Nullable Duration waitTime;

		private Duration minHold = Duration.ZERO;

		private boolean autoRenew = true;

		private boolean fair;

		private LockFailurePolicy onFailure = LockFailurePolicy.THROW;

		private @Nullable Method fallback;

		private Shape shape = Shape.BLOCKING;

		private @Nullable String lockName;

		private Builder(Method method) {
			this.method = method;
		}

		Builder name(String name) {
			this.name = name;
			return this;
		}

		Builder key(KeyExpression key) {
			this.key = key;
			return this;
		}

		Builder keys(List<KeyExpression> keys) {
			this.keys = keys;
			return this;
		}

		Builder mode(LockMode mode) {
			this.mode = mode;
			return this;
		}

		Builder permits(int permits) {
			this.permits = permits;
			return this;
		}

		Builder ttl(Duration ttl) {
			this.ttl = ttl;
			return this;
		}

		Builder waitTime(Duration waitTime) {
			this.waitTime = waitTime;
			return this;
		}

		Builder minHold(Duration minHold) {
			this.minHold = minHold;
			return this;
		}

		Builder autoRenew(boolean autoRenew) {
			this.autoRenew = autoRenew;
			return this;
		}

		Builder fair(boolean fair) {
			this.fair = fair;
			return this;
		}

		Builder onFailure(LockFailurePolicy onFailure) {
			this.onFailure = onFailure;
			return this;
		}

		Builder fallback(@Nullable Method fallback) {
			this.fallback = fallback;
			return this;
		}

		Builder shape(Shape shape) {
			this.shape = shape;
			return this;
		}

		Builder lockName(String lockName) {
			this.lockName = lockName;
			return this;
		}

		LockOperation build() {
			return new LockOperation(this);
		}

	}

	/**
	 * What a method returns, which decides how long its lock is held.
	 */
	enum Shape {

		/**
		 * Held until the method returns.
		 */
		BLOCKING,

		/**
		 * Held until the returned {@code CompletionStage} completes.
		 */
		STAGE,

		/**
		 * Taken on subscription of the returned {@code Mono} (or the {@code suspend}
		 * function's), held until it terminates.
		 */
		MONO,

		/**
		 * Taken on subscription of the returned {@code Flux} (or {@code Publisher}, or
		 * the {@code Flow} of a {@code suspend} function), held until it terminates.
		 */
		FLUX

	}

}
