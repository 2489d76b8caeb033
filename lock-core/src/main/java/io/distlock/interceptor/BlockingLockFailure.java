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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;

/**
 * What a method that is not reactive does when its lock stays busy, by its
 * {@linkplain LockOperation#onFailure() failure policy}: throw, skip or call the
 * fallback.
 *
 * @see ReactiveLockInvocation
 */
final class BlockingLockFailure {

	// Logs as the interceptor: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LockInterceptor.class);

	private BlockingLockFailure() {
	}

	/**
	 * Apply the operation's failure policy to a call whose lock stayed busy.
	 * @param operation the operation of the called method
	 * @param busy why the lock was not acquired
	 * @param args the arguments of the call
	 * @param target the object called
	 * @return what the method returns instead: empty, or the fallback's value
	 * @throws Throwable the busy exception, or what the fallback threw
	 */
	static @Nullable Object handle(LockOperation operation, LockAcquisitionException busy, @Nullable Object[] args,
			Object target) throws Throwable {
		switch (operation.onFailure()) {
			case SKIP -> {
				if (logger.isDebugEnabled()) {
					logger.debug("Skipped '" + operation.method() + "': lock '" + busy.getKey() + "' is busy");
				}
				return (operation.method().getReturnType() == Optional.class) ? Optional.empty() : null;
			}
			case FALLBACK -> {
				Method fallback = operation.fallback();
				if (fallback == null) {
					throw BusyMethodMessage.of(operation, busy);
				}
				try {
					return fallback.invoke(target, args);
				}
				catch (InvocationTargetException ex) {
					throw ex.getTargetException();
				}
			}
			default -> throw BusyMethodMessage.of(operation, busy);
		}
	}

}
