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

package io.distlock.sentinel;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.waiting.LockWaiter;

import static org.awaitility.Awaitility.await;

/**
 * A thread waiting for a lock, parked after a failed attempt so that only a release
 * notification (or its backoff) can wake it.
 */
final class Waiting {

	private final CompletableFuture<LockHandle> acquired;

	private volatile long acquiredAtNanos;

	private Waiting(CompletableFuture<LockHandle> acquired) {
		this.acquired = acquired;
	}

	/**
	 * Start a thread that acquires the lock through the template, and return once it is
	 * parked.
	 */
	static Waiting start(LockTemplate template, LockRequest request) {
		CompletableFuture<LockHandle> acquired = new CompletableFuture<>();
		Waiting waiting = new Waiting(acquired);
		Thread thread = new Thread(() -> {
			try {
				LockHandle handle = template.tryAcquire(request).orElseThrow();
				waiting.acquiredAtNanos = System.nanoTime();
				acquired.complete(handle);
			}
			catch (Throwable ex) {
				acquired.completeExceptionally(ex);
			}
		}, "waiting-for-" + request.key());
		thread.setDaemon(true);
		thread.start();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> acquired.isDone() || LockSupport.getBlocker(thread) instanceof LockWaiter.Waiter);
		return waiting;
	}

	/**
	 * Wait for the acquisition and return how long after the given instant it happened.
	 */
	Duration acquiredAfter(long releasedAtNanos, Duration timeout) throws Exception {
		this.acquired.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		return Duration.ofNanos(this.acquiredAtNanos - releasedAtNanos);
	}

	LockHandle handle() {
		return this.acquired.join();
	}

}
