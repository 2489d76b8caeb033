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
 * Code to run while holding a lock, for
 * {@link LockTemplate#execute(LockRequest, LockCallback)}. It may throw any exception,
 * which reaches the caller of the template unchanged.
 *
 * <pre class="code">
 * lockTemplate.execute(request, (lock) -&gt; storage.write(document, lock.fencingToken()));
 * </pre>
 *
 * @param <T> the type of the result
 * @param <E> the type of exception the code may throw; inferred as
 * {@link RuntimeException} for code that throws no checked exception
 * @see LockBusyCallback
 */
@FunctionalInterface
public interface LockCallback<T extends @Nullable Object, E extends Throwable> {

	/**
	 * Run while holding the lock.
	 * @param lock the held lock, for its fencing token
	 * @return the result, returned by the template
	 * @throws E what the code throws, rethrown by the template
	 */
	T doWithLock(LockHandle lock) throws E;

}
