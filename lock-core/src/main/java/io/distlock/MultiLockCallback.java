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

import org.jspecify.annotations.Nullable;

/**
 * Code run while the keys of a {@link MultiLockRequest} are all held.
 *
 * @param <T> the type of the result
 * @param <E> the type of exception the code may throw
 * @see LockTemplate#executeAll(MultiLockRequest, MultiLockCallback)
 */
@FunctionalInterface
public interface MultiLockCallback<T extends @Nullable Object, E extends Throwable> {

	/**
	 * Run while holding every lock.
	 * @param locks the held locks, for their fencing tokens
	 * @return the result, returned by the template
	 * @throws E what the code throws, rethrown by the template
	 */
	T doWithLocks(MultiLockHandle locks) throws E;

}
