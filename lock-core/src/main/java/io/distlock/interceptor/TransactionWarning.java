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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Warns, once per method, when a locked method is called inside a transaction that was
 * already active, whose commit then comes after the release of the lock.
 */
final class TransactionWarning {

	// Logs as the interceptor: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LockInterceptor.class);

	private static final boolean transactionsPresent = ClassUtils.isPresent(
			"org.springframework.transaction.support.TransactionSynchronizationManager",
			TransactionWarning.class.getClassLoader());

	private final Set<Method> warned = ConcurrentHashMap.newKeySet();

	/**
	 * Warn if a transaction is active and this method was not warned about before.
	 * @param operation the operation of the called method
	 */
	void warnIfInTransaction(LockOperation operation) {
		if (transactionsPresent && TransactionSynchronizationManager.isActualTransactionActive()
				&& this.warned.add(operation.method())) {
			logger.warn("'" + operation.method() + "' was called inside a transaction that was already active: "
					+ "its lock is released before that transaction commits, so the next holder may not see "
					+ "this call's changes. Call it outside the transaction, or make the outer method "
					+ "@DistributedLocked instead. (Logged once per method.)");
		}
	}

}
