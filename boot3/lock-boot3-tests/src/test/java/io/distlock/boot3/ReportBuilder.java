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
package io.distlock.boot3;

import reactor.core.publisher.Mono;

import io.distlock.annotation.DistributedLocked;

/**
 * A bean with a locked reactive method: the lock is held from subscription until the
 * {@link Mono} completes.
 */
class ReportBuilder {

	/**
	 * Build a report under the distributed lock of its ledger.
	 * @param ledgerId the ledger, which names the lock
	 * @param work the reactive work to run holding the lock
	 * @return the work's result
	 */
	@DistributedLocked(key = "'report:' + #ledgerId", ttl = "10s", waitTime = "60s")
	public Mono<String> build(long ledgerId, Mono<String> work) {
		return work;
	}

}
