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

package io.distlock;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.engine.LockEngine;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.util.Assert;

/**
 * The programmatic entry point: take a distributed lock, run code under it, release it.
 *
 * <pre class="code">
 * lockTemplate.execute(LockRequest.of("order:42", Duration.ofSeconds(10), Duration.ZERO),
 *         (lock) -&gt; storage.write(order, lock.fencingToken()));
 * </pre>
 *
 * <p>
 * The implementation of {@link LockOperations}, whose documentation tells the release
 * policies: a view of the application's {@link LockEngine}, which every front door
 * shares.
 *
 * @see LockOperations
 * @see LockHandle
 * @see LockClient
 * @see LockSettings
 */
public class LockTemplate implements LockOperations {

	/**
	 * The default key prefix, so that lock keys stand apart from the application's data.
	 */
	public static final String DEFAULT_KEY_PREFIX = LockSettings.DEFAULT_KEY_PREFIX;

	private final LockEngine engine;

	/**
	 * Create a template over the given lock store, waiting by bounded backoff only, on an
	 * engine of its own with the default settings.
	 * @param client the lock store
	 */
	public LockTemplate(LockClient client) {
		this(new LockEngine(client));
	}

	/**
	 * Create a template over the given lock store, with the given waiter, on an engine of
	 * its own with the default settings; pass the waiter that release notifications
	 * signal, so that waiting callers wake up on a release.
	 * @param client the lock store
	 * @param waiter the waiter that parks callers of a busy lock
	 */
	public LockTemplate(LockClient client, LockWaiter waiter) {
		this(new LockEngine(client, waiter, LockSettings.defaults()));
	}

	/**
	 * Create a template that is a view of the given engine, which it shares with the
	 * application's other front doors: their locks are listed, counted and released
	 * together, and a lock is queued for locally once per application.
	 * @param engine the engine
	 */
	public LockTemplate(LockEngine engine) {
		Assert.notNull(engine, "'engine' must not be null");
		this.engine = engine;
	}

	/**
	 * Return the engine this template is a view of, which answers what operators ask of
	 * the locks ({@link LockAdministration}): statistics, held and waiting locks,
	 * inspection and forced release.
	 * @return the engine
	 */
	public LockEngine getEngine() {
		return this.engine;
	}

	/**
	 * Return the settings of this template's engine: key prefix, instance name, listeners
	 * and observations.
	 * @return the settings
	 */
	public LockSettings getSettings() {
		return this.engine.getSettings();
	}

	// How many threads wait for the key in this template's local queue (for tests).
	int localWaiters(String key) {
		return this.engine.localWaiters(key);
	}

	// How many keys have a local queue now (for tests).
	int localQueues() {
		return this.engine.localQueues();
	}

	@Override
	public Optional<LockHandle> tryAcquire(String key, Duration ttl, Duration waitTime) {
		return tryAcquire(LockRequest.of(key, ttl, waitTime));
	}

	@Override
	public Optional<LockHandle> tryAcquire(LockRequest request) {
		Assert.notNull(request, "'request' must not be null");
		return Optional.ofNullable(this.engine.acquire(request));
	}

	@Override
	public <T extends @Nullable Object> T execute(String key, Duration ttl, Duration waitTime, Supplier<T> action) {
		return execute(LockRequest.of(key, ttl, waitTime), action);
	}

	@Override
	public <T extends @Nullable Object> T execute(LockRequest request, Supplier<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return execute(request, (lock) -> action.get());
	}

	@Override
	public <T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback)
			throws E {
		return execute(request, callback, (busy) -> {
			throw busy;
		});
	}

	@Override
	public <T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback,
			LockBusyCallback<T, E> whenBusy) throws E {
		return this.engine.execute(request, callback, whenBusy);
	}

	@Override
	public Optional<MultiLockHandle> tryAcquireAll(Collection<String> keys, Duration ttl, Duration waitTime) {
		return tryAcquireAll(MultiLockRequest.of(keys, ttl, waitTime));
	}

	@Override
	public Optional<MultiLockHandle> tryAcquireAll(MultiLockRequest request) {
		Assert.notNull(request, "'request' must not be null");
		return Optional.ofNullable(this.engine.acquireAll(request));
	}

	@Override
	public <T extends @Nullable Object> T executeAll(Collection<String> keys, Duration ttl, Duration waitTime,
			Supplier<T> action) {
		Assert.notNull(action, "'action' must not be null");
		return executeAll(MultiLockRequest.of(keys, ttl, waitTime), (locks) -> action.get());
	}

	@Override
	public <T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback) throws E {
		return executeAll(request, callback, (busy) -> {
			throw busy;
		});
	}

	@Override
	public <T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback, LockBusyCallback<T, E> whenBusy) throws E {
		return this.engine.executeAll(request, callback, whenBusy);
	}

	@Override
	public <T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action) throws E {
		return executeAsync(request, action, CompletableFuture::failedFuture);
	}

	@Override
	public <T extends @Nullable Object, E extends Throwable> CompletableFuture<T> executeAsync(LockRequest request,
			LockCallback<? extends @Nullable CompletionStage<T>, E> action,
			LockBusyCallback<? extends @Nullable CompletionStage<T>, E> whenBusy) throws E {
		return this.engine.executeAsync(request, action, whenBusy);
	}

	@Override
	public @Nullable LockHandle findBoundLock(String key) {
		Assert.notNull(key, "'key' must not be null");
		return this.engine.findBoundLock(key);
	}

}
