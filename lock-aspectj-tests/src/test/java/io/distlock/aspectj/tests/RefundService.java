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

package io.distlock.aspectj.tests;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;

/**
 * A bean woven at compile time: calls from inside the class, a private and a final
 * method, each failure policy, async and reactive methods. Each locked method reports the
 * lock the thread holds and whether Redis holds it.
 */
public class RefundService {

	private final LockTemplate template;

	final List<String> seen = new CopyOnWriteArrayList<>();

	public RefundService(LockTemplate template) {
		this.template = template;
	}

	public void refundAll(List<Long> ids) {
		for (long id : ids) {
			this.refundOne(id);
		}
	}

	@DistributedLocked(key = "'refund:' + #id", ttl = "10s")
	public void refundOne(long id) {
		this.seen.add(held());
	}

	public String settleThroughPrivate(long id) {
		return settle(id);
	}

	@DistributedLocked(key = "'settle:' + #id", ttl = "10s")
	private String settle(long id) {
		return held();
	}

	@DistributedLocked(key = "'close:' + #id", ttl = "10s")
	public final String close(long id) {
		return held();
	}

	@DistributedLocked(key = "'busy:' + #id")
	public String throwing(long id) {
		return held();
	}

	@DistributedLocked(key = "'busy:' + #id", onFailure = LockFailurePolicy.SKIP)
	public String skipping(long id) {
		return held();
	}

	@DistributedLocked(key = "'busy:' + #id", fallbackMethod = "busy")
	public String fallingBack(long id) {
		return held();
	}

	private String busy(long id) {
		return "fallback " + id;
	}

	@DistributedLocked(key = "'async:' + #id", ttl = "10s")
	public CompletableFuture<String> async(long id, CompletableFuture<Void> gate) {
		// Completes later, on another thread: the lock is held until then.
		return gate.thenApplyAsync(
				(ignored) -> "async:" + id + " held=" + this.template.getEngine().inspect("async:" + id).held());
	}

	@DistributedLocked(key = "'busy:' + #id")
	public CompletableFuture<String> asyncThrowing(long id) {
		return CompletableFuture.completedFuture("ran");
	}

	@DistributedLocked(key = "'mono:' + #id", ttl = "10s")
	public Mono<String> mono(long id) {
		return Mono
			.fromCallable(() -> "mono:" + id + " held=" + this.template.getEngine().inspect("mono:" + id).held());
	}

	@DistributedLocked(key = "'flux:' + #id", ttl = "10s")
	public Flux<String> flux(long id) {
		return Flux.range(1, 2)
			.map((n) -> "flux:" + id + " held=" + this.template.getEngine().inspect("flux:" + id).held());
	}

	@DistributedLocked(key = "'busy:' + #id")
	public Mono<String> monoThrowing(long id) {
		return Mono.just("ran");
	}

	@DistributedLocked(key = "'busy:' + #id", onFailure = LockFailurePolicy.SKIP)
	public Flux<String> fluxSkipping(long id) {
		return Flux.just("ran");
	}

	private String held() {
		LockHandle lock = LockContext.require();
		return lock.key() + " held=" + this.template.getEngine().inspect(lock.key()).held();
	}

}
