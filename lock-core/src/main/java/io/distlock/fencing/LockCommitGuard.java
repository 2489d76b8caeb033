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

package io.distlock.fencing;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import io.distlock.LockContext;
import io.distlock.LockHandle;

import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Checks, just before a transaction commits, that every distlock lock the committing
 * thread holds is still held in the store (an owner-checked read, on the primary) and not
 * known lost; if one is not, the commit fails with {@link LockLostBeforeCommitException}
 * and the transaction rolls back. A {@link TransactionExecutionListener}: register it
 * with the transaction manager (Spring Boot does, for its auto-configured one).
 *
 * <p>
 * What it closes: a loss that happened, and can be seen, before the commit. What it does
 * not: a pause between this check and the commit itself, after which a later holder may
 * write first; only a fence the storage checks
 * ({@link io.distlock.fencing.jdbc.JdbcFence}) closes that. It costs one round trip to
 * the store per held lock per commit, and nothing for a thread that holds no lock.
 */
public class LockCommitGuard implements TransactionExecutionListener {

	@Override
	public void beforeCommit(TransactionExecution transaction) {
		if (!transaction.isNewTransaction()) {
			return;
		}
		Set<LockHandle> checked = Collections.newSetFromMap(new IdentityHashMap<>());
		for (LockHandle lock : LockContext.held()) {
			// isHeld() answers false without asking the store for a lock known lost.
			if (checked.add(lock) && !lock.isHeld()) {
				throw new LockLostBeforeCommitException(lock.key(), lock.fencingToken());
			}
		}
	}

}
