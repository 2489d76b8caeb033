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

package io.distlock.aspectj;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import io.distlock.interceptor.LockAspectSupport;
import io.distlock.interceptor.LockInvoker;

/**
 * What {@link DistributedLockedAspect} runs for the woven objects of one application
 * context: that context's operation source, template and bean factory. Once the context
 * is closed, a call fails rather than reaching its beans or those of another context.
 */
final class ContextLockAspect extends LockAspectSupport {

	private volatile boolean closed;

	@Nullable Object run(LockInvoker invoker, Object target, Method method, @Nullable Object[] args) throws Throwable {
		if (this.closed) {
			throw new IllegalStateException("@DistributedLocked method '" + method + "' was called on a bean of an "
					+ "application context that is closed, so DistributedLockedAspect is not configured for it any "
					+ "more (distlock.aop.mode=aspectj): the call fails rather than running unlocked");
		}
		return execute(invoker, target, method, args);
	}

	void close() {
		this.closed = true;
		clear();
	}

	boolean isClosed() {
		return this.closed;
	}

}
