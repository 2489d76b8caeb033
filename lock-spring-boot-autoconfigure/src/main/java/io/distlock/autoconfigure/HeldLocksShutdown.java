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

package io.distlock.autoconfigure;

import java.time.Duration;
import java.util.function.IntSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

/**
 * Gives the held locks back when the application context closes, so that a rolling deploy
 * does not leave other instances waiting out a ttl: locked work still running may finish
 * first, within a grace period, then every lock still held is released (owner-checked).
 *
 * <p>
 * Its phase puts it after the web server's graceful shutdown, which lets requests in
 * progress finish, and before the lease renewer stops: leases are renewed while the work
 * finishes, and nothing renews once the locks are released.
 *
 * <p>
 * It is not stopped when Spring pauses the context (as the test context cache does): the
 * work that holds the locks goes on, so they must not be released under it. An explicit
 * {@code stop()} gives them back, and a {@code start()} makes it ready for the next.
 */
final class HeldLocksShutdown implements SmartLifecycle {

	/**
	 * Between the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}) and the
	 * lease renewer ({@code DEFAULT_PHASE - 2048}).
	 */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;

	private static final Log logger = LogFactory.getLog(HeldLocksShutdown.class);

	private static final Duration POLL = Duration.ofMillis(50);

	private static final Duration RELEASE_MARGIN = Duration.ofSeconds(5);

	private final IntSupplier heldLocks;

	private final Runnable releaseHeldLocks;

	private final Duration gracePeriod;

	private volatile boolean running;

	/**
	 * Create a shutdown step.
	 * @param heldLocks counts the locks held now
	 * @param releaseHeldLocks releases them all
	 * @param gracePeriod how long locked work may go on finishing
	 */
	HeldLocksShutdown(IntSupplier heldLocks, Runnable releaseHeldLocks, Duration gracePeriod) {
		this.heldLocks = heldLocks;
		this.releaseHeldLocks = releaseHeldLocks;
		this.gracePeriod = gracePeriod;
	}

	/**
	 * Return how long locked work may go on finishing: Spring Boot's
	 * {@code spring.lifecycle.timeout-per-shutdown-phase} (30s by default), less five
	 * seconds for the releases.
	 * @param environment the environment to read it from
	 * @return the grace period
	 */
	static Duration gracePeriod(Environment environment) {
		Duration phaseTimeout = Binder.get(environment)
			.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
			.orElse(Duration.ofSeconds(30));
		Duration gracePeriod = phaseTimeout.minus(RELEASE_MARGIN);
		return gracePeriod.isNegative() ? Duration.ZERO : gracePeriod;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		stopNow();
	}

	@Override
	public void stop(Runnable callback) {
		if (this.heldLocks.getAsInt() == 0) {
			stopNow();
			callback.run();
			return;
		}
		// Waits on a thread of its own, so that the other beans of this phase stop
		// meanwhile.
		Thread waiting = new Thread(() -> {
			try {
				awaitFinishedWork();
				stopNow();
			}
			finally {
				callback.run();
			}
		}, "distlock-shutdown");
		waiting.setDaemon(true);
		waiting.start();
	}

	private void awaitFinishedWork() {
		long deadline = System.nanoTime() + this.gracePeriod.toNanos();
		int held;
		while ((held = this.heldLocks.getAsInt()) > 0 && System.nanoTime() - deadline < 0) {
			try {
				Thread.sleep(POLL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		if (held > 0) {
			logger.warn(held + " lock(s) still held " + this.gracePeriod.toMillis()
					+ "ms after shutdown began: releasing them, though their work goes on unprotected");
		}
	}

	private void stopNow() {
		if (!this.running) {
			return;
		}
		this.running = false;
		this.releaseHeldLocks.run();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Tell Spring not to stop this step when it pauses the context: the locks belong to
	 * work that goes on. Not marked {@code @Override}, so that it compiles against Spring
	 * Framework 6.2 too (the Spring Boot 3.5 generation), which has no pause.
	 * @return {@code false}
	 */
	public boolean isPauseable() {
		return false;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
