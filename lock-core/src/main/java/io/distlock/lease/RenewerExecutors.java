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

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The threads a {@link LeaseRenewer} makes for itself when it is given none: the
 * scheduler that plans the renewals, the threads that send them, the threads that tell a
 * lost lock's holder, and the threads that tell the listeners. All are daemon threads.
 */
final class RenewerExecutors {

	private static final String THREAD_NAME = "distlock-lease-renewer";

	private static final int MAX_CALL_THREADS = 4;

	private static final int LOST_CALLBACK_THREADS = 2;

	private static final int LISTENER_THREADS = 2;

	private static final int MAX_QUEUED_LISTENER_CALLS = 10_000;

	private RenewerExecutors() {
	}

	static ThreadPoolTaskScheduler defaultScheduler() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setThreadFactory((task) -> {
			Thread thread = new Thread(task, THREAD_NAME);
			thread.setDaemon(true);
			return thread;
		});
		scheduler.setClock(new MonotonicClock());
		// Rescheduling cancels ticks: drop them from the queue rather than let them pile
		// up.
		scheduler.setRemoveOnCancelPolicy(true);
		// On close, let a running tick finish but drop the pending one.
		scheduler.setWaitForTasksToCompleteOnShutdown(true);
		scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return scheduler;
	}

	static ExecutorService callExecutor() {
		// One thread while the store answers. More only while calls wait for their
		// command timeout, so that the next batch need not wait too; beyond that, a
		// batch is retried later (its leases being reported lost if they run out) rather
		// than queued behind calls that hang.
		ThreadPoolExecutor executor = new ThreadPoolExecutor(1, MAX_CALL_THREADS, 30, TimeUnit.SECONDS,
				new SynchronousQueue<>(), daemonThreads("distlock-lease-renewal-"));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	static ExecutorService lostCallbackExecutor() {
		// Marks a lock lost and completes its whenLost(): never dropped, and no listener
		// runs here, so that no listener can delay the loss of any lock. Two threads, so
		// that one slow whenLost() stage does not hold up every other loss.
		ThreadPoolExecutor executor = new ThreadPoolExecutor(LOST_CALLBACK_THREADS, LOST_CALLBACK_THREADS, 30,
				TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemonThreads("distlock-lock-lost-"));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	static ExecutorService listenerExecutor() {
		// Listeners are the application's code, told after the loss took effect: two
		// threads, so that one blocking listener does not hold up every other report,
		// and a bounded queue, so that listeners that block for good cannot pile up
		// reports without end.
		ThreadPoolExecutor executor = new ThreadPoolExecutor(LISTENER_THREADS, LISTENER_THREADS, 30, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(MAX_QUEUED_LISTENER_CALLS), daemonThreads("distlock-lock-listener-"));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	private static ThreadFactory daemonThreads(String prefix) {
		CustomizableThreadFactory threadFactory = new CustomizableThreadFactory(prefix);
		threadFactory.setDaemon(true);
		return threadFactory;
	}

}
