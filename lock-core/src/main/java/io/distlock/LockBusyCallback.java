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
 * What to do instead when a lock stayed busy for the whole wait time, for
 * {@link LockTemplate#execute(LockRequest, LockCallback, LockBusyCallback)}: return a
 * fallback result, or throw (the given exception, or one of the caller's own).
 *
 * @param <T> the type of the result
 * @param <E> the type of exception it may throw
 * @see LockCallback
 */
@FunctionalInterface
public interface LockBusyCallback<T extends @Nullable Object, E extends Throwable> {

	/**
	 * Answer for a lock that stayed busy; the locked code did not run.
	 * @param busy the exception the template would throw, with the key and the time
	 * waited
	 * @return the result the template returns instead
	 * @throws E to fail the call instead
	 */
	T whenBusy(LockAcquisitionException busy) throws E;

}
