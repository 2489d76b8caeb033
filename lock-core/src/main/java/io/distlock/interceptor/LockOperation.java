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

import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.MultiLockRequest;
import io.distlock.annotation.LockFailurePolicy;

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

	private final List<KeyExpression> keys;

	private final LockRequestAttributes attributes;

	private final LockFailurePolicy onFailure;

	private final @Nullable Method fallback;

	private final MethodShape shape;

	LockOperation(Method method, String name, KeyExpression key, List<KeyExpression> keys,
			LockRequestAttributes attributes, LockFailurePolicy onFailure, @Nullable Method fallback,
			MethodShape shape) {
		this.method = method;
		this.name = name;
		this.key = key;
		this.keys = keys;
		this.attributes = attributes;
		this.onFailure = onFailure;
		this.fallback = fallback;
		this.shape = shape;
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
		return this.attributes.mode();
	}

	/**
	 * Return how many callers may hold the key at once.
	 * @return the number of permits, 1 for a plain lock
	 */
	public int permits() {
		return this.attributes.permits();
	}

	/**
	 * Return the lease time.
	 * @return the ttl
	 */
	public Duration ttl() {
		return this.attributes.ttl();
	}

	/**
	 * Return how long to wait for a busy lock.
	 * @return the wait time
	 */
	public Duration waitTime() {
		return this.attributes.waitTime();
	}

	/**
	 * Return how long the lock stays held at least after it was acquired.
	 * @return the minimum hold time, zero for none
	 */
	public Duration minHold() {
		return this.attributes.minHold();
	}

	/**
	 * Return whether the lease is renewed while the method runs.
	 * @return whether auto-renewed
	 */
	public boolean autoRenew() {
		return this.attributes.autoRenew();
	}

	/**
	 * Return whether waiters get the lock in arrival order.
	 * @return whether fair
	 */
	public boolean fair() {
		return this.attributes.fair();
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
		return this.shape == MethodShape.STAGE;
	}

	/**
	 * Return whether the method returns a {@code Mono} or a {@code Flux}, or is a Kotlin
	 * {@code suspend} function, whose lock is taken on subscription and held until the
	 * publisher terminates; decided once, when the method is parsed.
	 * @return whether the method's work is reactive
	 * @see io.distlock.reactive.ReactiveLockTemplate
	 */
	public boolean reactive() {
		return this.shape.reactive();
	}

	MethodShape shape() {
		return this.shape;
	}

	/**
	 * Return the name of this method's locks in metrics, traces and the {@code locks}
	 * endpoint: the annotation's {@code name}, or {@code ClassName.methodName}.
	 * @return the lock name
	 */
	public String lockName() {
		return this.attributes.lockName();
	}

	/**
	 * Return the lock key for an evaluated key: {@code <name>:<key>}, or the key alone.
	 * @param evaluatedKey the key expression's value for one call
	 * @return the lock key, without the key prefix
	 */
	public String lockKey(String evaluatedKey) {
		return this.name.isEmpty() ? evaluatedKey : this.name + ":" + evaluatedKey;
	}

	/**
	 * Return the request for one call of a method that locks one key.
	 * @param lockKey the lock key, as {@linkplain #lockKey(String) made}
	 * @return the request
	 * @throws IllegalArgumentException if the key is not a valid lock key
	 */
	LockRequest toRequest(String lockKey) {
		return this.attributes.toRequest(lockKey);
	}

	/**
	 * Return the request for one call of a method that locks several keys.
	 * @param lockKeys the lock keys, each as {@linkplain #lockKey(String) made}
	 * @return the request
	 * @throws IllegalArgumentException if a key is not a valid lock key, or there are
	 * none or too many
	 */
	MultiLockRequest toMultiLockRequest(List<String> lockKeys) {
		return this.attributes.toMultiLockRequest(lockKeys);
	}

	@Override
	public String toString() {
		return "LockOperation[" + this.method + ", name='" + this.name + "', key="
				+ (this.keys.isEmpty() ? this.key : this.keys) + ", mode=" + mode() + ", permits=" + permits()
				+ ", ttl=" + ttl() + ", waitTime=" + waitTime() + ", autoRenew=" + autoRenew() + ", fair=" + fair()
				+ ", onFailure=" + this.onFailure + ", shape=" + this.shape + "]";
	}

}
