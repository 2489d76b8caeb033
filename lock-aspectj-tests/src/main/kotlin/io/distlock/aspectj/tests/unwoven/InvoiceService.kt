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

package io.distlock.aspectj.tests.unwoven

import io.distlock.LockContext
import io.distlock.LockTemplate
import io.distlock.annotation.DistributedLocked

/**
 * A Kotlin class that is not `open` (final, as are its functions), whose locked function
 * is called from inside it: no proxy can lock it. Woven only where the weaver agent runs.
 */
class InvoiceService(private val template: LockTemplate) {

	fun issueAll(id: Long): String = issue(id)

	@DistributedLocked(key = "'invoice:' + #id", ttl = "10s")
	fun issue(id: Long): String {
		val lock = LockContext.require()
		return "${lock.key()} held=${template.getEngine().inspect(lock.key()).held()}"
	}

}
