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

package io.distlock.aspectj.tests.unwoven;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;

/**
 * A final class whose locked method is private and called from inside the class: no proxy
 * can lock it. Compiled by javac, so woven only where the weaver agent runs.
 */
public final class LedgerService {

	private final LockTemplate template;

	public LedgerService(LockTemplate template) {
		this.template = template;
	}

	/**
	 * Post the entry through the private locked method.
	 * @param id the entry
	 * @return the key of the lock held while posting, and whether Redis held it
	 */
	public String postAll(long id) {
		return this.post(id);
	}

	@DistributedLocked(key = "'ledger:' + #id", ttl = "10s")
	private String post(long id) {
		LockHandle lock = LockContext.require();
		return lock.key() + " held=" + this.template.getEngine().inspect(lock.key()).held();
	}

}
