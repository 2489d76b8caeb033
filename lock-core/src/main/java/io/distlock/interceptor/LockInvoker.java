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

import org.jspecify.annotations.Nullable;

/**
 * Calls a {@code @DistributedLocked} method's own code, for {@link LockAspectSupport}:
 * the proxy's invocation for {@link LockInterceptor}, the join point for a woven aspect.
 */
@FunctionalInterface
public interface LockInvoker {

	/**
	 * Call the method with the arguments it was called with.
	 * @return what the method returned
	 * @throws Throwable what the method threw
	 */
	@Nullable Object invoke() throws Throwable;

	/**
	 * Return an invoker for one more call of the method, taken before this one is used: a
	 * reactive method is called again for each subscription to what it returned. By
	 * default this invoker, for join points that can proceed more than once.
	 * @return an invoker that calls the method afresh
	 */
	default LockInvoker copy() {
		return this;
	}

}
