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

import org.jspecify.annotations.Nullable;

import io.distlock.annotation.LockFailurePolicy;

/**
 * The validated definition of one {@code @DistributedLocked} method: its attributes
 * parsed, placeholders resolved and defaults applied.
 *
 * @param method the annotated method, for messages
 * @param name the lock name, or empty
 * @param key the parsed key
 * @param ttl the lease time
 * @param waitTime how long to wait for a busy lock
 * @param autoRenew whether the lease is renewed while the method runs
 * @param fair whether waiters get the lock in arrival order
 * @param onFailure what to do when the lock stays busy
 * @param fallback the fallback method, for {@link LockFailurePolicy#FALLBACK}
 */
public record LockOperation(Method method, String name, KeyExpression key, Duration ttl, Duration waitTime,
		boolean autoRenew, boolean fair, LockFailurePolicy onFailure, @Nullable Method fallback) {

	/**
	 * Return the lock key for an evaluated key: {@code <name>:<key>}, or the key alone
	 * without a name.
	 * @param evaluatedKey the key expression's value for one call
	 * @return the lock key, without the key prefix
	 */
	public String lockKey(String evaluatedKey) {
		return this.name.isEmpty() ? evaluatedKey : this.name + ":" + evaluatedKey;
	}

}
