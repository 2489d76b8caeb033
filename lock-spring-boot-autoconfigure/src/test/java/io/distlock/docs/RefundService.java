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

package io.distlock.docs;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.distlock.LockContext;
import io.distlock.annotation.DistributedLocked;

/**
 * The troubleshooting page's self-invocation: a locked method called from inside its own
 * class runs without its lock.
 */
public class RefundService {

	private final List<Boolean> refundsUnderLock = new CopyOnWriteArrayList<>();

	public void refundAll(List<Long> ids) {
		for (long id : ids) {
			refundOne(id); // not through the proxy: runs WITHOUT the lock
		}
	}

	@DistributedLocked(key = "'refund:' + #id")
	public void refundOne(long id) {
		this.refundsUnderLock.add(LockContext.current().isPresent());
	}

	public List<Boolean> refundsUnderLock() {
		return this.refundsUnderLock;
	}

}
