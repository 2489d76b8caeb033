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

package io.distlock.lease;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The threads a {@link LeaseRenewer} runs on: those it was given, and those it made for
 * itself through {@link RenewerExecutors}, which it shuts down when stopped or closed and
 * makes again when started after a stop.
 *
 * <p>
 * The executors it hands out stay the same across a restart: one made for the renewer
 * passes each task to the executor of the current run. Not thread-safe: the renewer calls
 * {@link #shutdown()} and {@link #restart()} under its lifecycle lock.
 */
final class RenewerThreads {

	private final @Nullable ThreadPoolTaskScheduler ownScheduler;

	private final List<OwnExecutor> ownExecutors = new ArrayList<>(3);

	private final Executor calls;

	private final Executor lostCallbacks;

	private final Executor listeners;

	private boolean shutDown;

	/**
	 * Take the given threads, making those not given.
	 * @param scheduler the scheduler that plans the renewals
	 * @param ownScheduler whether the scheduler was made for the renewer, to initialize
	 * now and shut down with it
	 * @param calls runs the renewal calls, or {@code null} to make one
	 * @param lostCallbacks runs the lost-lease callbacks, or {@code null} to make one
	 * @param listeners runs the listener notifications, or {@code null} to make one
	 */
	RenewerThreads(TaskScheduler scheduler, boolean ownScheduler, @Nullable Executor calls,
			@Nullable Executor lostCallbacks, @Nullable Executor listeners) {
		this.ownScheduler = ownScheduler ? (ThreadPoolTaskScheduler) scheduler : null;
		if (this.ownScheduler != null) {
			// Creates no thread yet: the first scheduled tick does.
			this.ownScheduler.initialize();
		}
		this.calls = (calls != null) ? calls : own(RenewerExecutors::callExecutor);
		this.lostCallbacks = (lostCallbacks != null) ? lostCallbacks : own(RenewerExecutors::lostCallbackExecutor);
		this.listeners = (listeners != null) ? listeners : own(RenewerExecutors::listenerExecutor);
	}

	Executor calls() {
		return this.calls;
	}

	Executor lostCallbacks() {
		return this.lostCallbacks;
	}

	Executor listeners() {
		return this.listeners;
	}

	/**
	 * Shut down the scheduler and executors made for the renewer; those it was given go
	 * on.
	 */
	void shutdown() {
		if (this.shutDown) {
			return;
		}
		this.shutDown = true;
		if (this.ownScheduler != null) {
			this.ownScheduler.shutdown();
		}
		// Running calls and queued callbacks still finish, on daemon threads.
		this.ownExecutors.forEach(OwnExecutor::shutdown);
	}

	/**
	 * Make the scheduler and executors made for the renewer again, if they were shut
	 * down: the scheduler keeps its clock, so that lease times stay comparable.
	 */
	void restart() {
		if (!this.shutDown) {
			return;
		}
		this.shutDown = false;
		if (this.ownScheduler != null) {
			this.ownScheduler.initialize();
		}
		this.ownExecutors.forEach(OwnExecutor::renew);
	}

	private Executor own(Supplier<ExecutorService> factory) {
		OwnExecutor executor = new OwnExecutor(factory);
		this.ownExecutors.add(executor);
		return executor;
	}

	/**
	 * An executor made for the renewer, made again after it was shut down.
	 */
	private static final class OwnExecutor implements Executor {

		private final Supplier<ExecutorService> factory;

		private volatile ExecutorService current;

		OwnExecutor(Supplier<ExecutorService> factory) {
			this.factory = factory;
			this.current = factory.get();
		}

		@Override
		public void execute(Runnable task) {
			this.current.execute(task);
		}

		void renew() {
			this.current = this.factory.get();
		}

		void shutdown() {
			this.current.shutdown();
		}

	}

}
