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
import io.distlock.annotation.LockFailurePolicy;

import org.springframework.util.Assert;

/**
 * A builder of a {@link LockOperation}, for the parser. The key expression, ttl, wait
 * time and lock name must be set; the other attributes default to a blocking, renewed,
 * unfair, unnamed exclusive lock on one key, with one permit, no minimum hold time and
 * {@link LockFailurePolicy#THROW}.
 */
final class LockOperationBuilder {

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

	private MethodShape shape = MethodShape.BLOCKING;

	private @Nullable String lockName;

	/**
	 * Start building the operation of the given method.
	 * @param method the annotated method
	 */
	LockOperationBuilder(Method method) {
		this.method = method;
	}

	LockOperationBuilder name(String name) {
		this.name = name;
		return this;
	}

	LockOperationBuilder key(KeyExpression key) {
		this.key = key;
		return this;
	}

	LockOperationBuilder keys(List<KeyExpression> keys) {
		this.keys = keys;
		return this;
	}

	LockOperationBuilder mode(LockMode mode) {
		this.mode = mode;
		return this;
	}

	LockOperationBuilder permits(int permits) {
		this.permits = permits;
		return this;
	}

	LockOperationBuilder ttl(Duration ttl) {
		this.ttl = ttl;
		return this;
	}

	LockOperationBuilder waitTime(Duration waitTime) {
		this.waitTime = waitTime;
		return this;
	}

	LockOperationBuilder minHold(Duration minHold) {
		this.minHold = minHold;
		return this;
	}

	LockOperationBuilder autoRenew(boolean autoRenew) {
		this.autoRenew = autoRenew;
		return this;
	}

	LockOperationBuilder fair(boolean fair) {
		this.fair = fair;
		return this;
	}

	LockOperationBuilder onFailure(LockFailurePolicy onFailure) {
		this.onFailure = onFailure;
		return this;
	}

	LockOperationBuilder fallback(@Nullable Method fallback) {
		this.fallback = fallback;
		return this;
	}

	LockOperationBuilder shape(MethodShape shape) {
		this.shape = shape;
		return this;
	}

	LockOperationBuilder lockName(String lockName) {
		this.lockName = lockName;
		return this;
	}

	LockOperation build() {
		Assert.notNull(this.key, "'key' must not be null");
		Assert.notNull(this.ttl, "'ttl' must not be null");
		Assert.notNull(this.waitTime, "'waitTime' must not be null");
		Assert.notNull(this.lockName, "'lockName' must not be null");
		LockRequestAttributes settings = new LockRequestAttributes(this.ttl, this.waitTime, this.minHold,
				this.autoRenew, this.fair, this.mode, this.permits, this.lockName);
		return new LockOperation(this.method, this.name, this.key, List.copyOf(this.keys), settings, this.onFailure,
				this.fallback, this.shape);
	}

}
