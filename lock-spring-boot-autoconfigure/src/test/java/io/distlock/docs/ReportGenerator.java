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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;

/**
 * The README's asynchronous work under a lock: held until the returned future completes.
 */
public class ReportGenerator {

	private final LockTemplate lockTemplate;

	private final Executor executor;

	public ReportGenerator(LockTemplate lockTemplate, Executor executor) {
		this.lockTemplate = lockTemplate;
		this.executor = executor;
	}

	@DistributedLocked(key = "'report:' + #month", ttl = "30s", waitTime = "5s")
	public CompletableFuture<String> generate(String month) {
		// Bound to this thread only while the method runs: take what the work needs here.
		LockHandle lock = LockContext.require();
		long token = lock.fencingToken();
		CompletableFuture<String> report = CompletableFuture.supplyAsync(() -> render(month, token), this.executor);
		// A lost lock no longer protects the work: stop it.
		lock.whenLost().thenRun(() -> report.cancel(true));
		return report;
	}

	public CompletableFuture<String> export(String month) {
		LockRequest request = LockRequest.of("export:" + month, Duration.ofSeconds(30), Duration.ofSeconds(5));
		return this.lockTemplate.executeAsync(request,
				(lock) -> CompletableFuture.supplyAsync(() -> render(month, lock.fencingToken()), this.executor));
	}

	private String render(String month, long fencingToken) {
		return "report " + month + " (token " + fencingToken + ")";
	}

}
