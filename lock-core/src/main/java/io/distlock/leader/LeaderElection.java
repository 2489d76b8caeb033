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

package io.distlock.leader;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockListener;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.engine.LockSettings;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;
import io.distlock.observation.LockObservationConvention;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.util.Assert;

/**
 * Elects one leader among the instances of an application: while running, it contends for
 * one lock of the given name, holds it (renewed) for as long as the instance lives, and
 * contends again when it is lost. The instance that gets it publishes a
 * {@link LeadershipGrantedEvent}; when it loses it, or gives it up on shutdown, a
 * {@link LeadershipRevokedEvent}.
 *
 * <pre class="code">
 * if (leaderElection.isLeader()) {
 *     long token = leaderElection.getFencingToken().orElseThrow();
 *     storage.write(report, token);
 * }
 * </pre>
 *
 * <p>
 * Other instances wait for the lock as any waiter does: a graceful shutdown releases it
 * and wakes one of them at once; after a crash (kill -9) the lock expires after its ttl,
 * so leadership moves within about one ttl. Every leadership gets a fencing token greater
 * than that of every leader before, so a leader that was paused past its ttl and still
 * writes can be fenced off. Leadership is renewed without the maximum hold time of
 * ordinary locks.
 *
 * <p>
 * The events are published on the thread that contends for and holds the leadership; a
 * listener that throws is logged, and the leadership goes on regardless.
 */
public class LeaderElection implements SmartLifecycle, ApplicationEventPublisherAware {

	/**
	 * The default lease time of the leadership lock: ten seconds.
	 */
	public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

	// The name of the leadership lock in listener events, metrics and the locks endpoint.
	private static final String LOCK_NAME = "leader";

	// Leadership is held for the life of the instance; a century is as long as that.
	private static final Duration LIFETIME = Duration.ofDays(365L * 100);

	// How long one attempt waits before the loop checks that it still runs.
	private static final Duration ATTEMPT = Duration.ofMinutes(1);

	private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(LeaderElection.class);

	private final String name;

	private final LockClient client;

	private @Nullable LeaseRenewer renewer;

	private final LockTemplate lockTemplate;

	private final LockSettings settings;

	private final Object monitor = new Object();

	private Duration ttl = DEFAULT_TTL;

	private ApplicationEventPublisher publisher = (event) -> {
	};

	private volatile @Nullable Leadership leadership;

	private volatile boolean running;

	private @Nullable Thread contender;

	private @Nullable TaskScheduler renewalScheduler;

	/**
	 * Create an election for the lock of the given name in the given store.
	 * @param client the lock store
	 * @param waiter the waiter that release notifications signal, so that a graceful
	 * handover wakes a contender at once
	 * @param name the name of the leadership, which is the lock key
	 */
	public LeaderElection(LockClient client, LockWaiter waiter, String name) {
		this(client, waiter, name, new LockSettings());
	}

	/**
	 * Create an election for the lock of the given name in the given store, with the
	 * settings of the application's {@link LockTemplate}: its key prefix, listeners and
	 * observations, and its registry of held locks, so that the leadership lock is listed
	 * with the application's other locks. The leadership lock is renewed by a renewer of
	 * the election's own, not by the one of the settings.
	 * @param client the lock store
	 * @param waiter the waiter that release notifications signal, so that a graceful
	 * handover wakes a contender at once
	 * @param name the name of the leadership, which is the lock key
	 * @param settings the settings shared with the application's other front doors
	 */
	public LeaderElection(LockClient client, LockWaiter waiter, String name, LockSettings settings) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(waiter, "'waiter' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		LockRequest.of(name, DEFAULT_TTL, Duration.ZERO);
		this.name = name;
		this.client = client;
		this.settings = settings.withSeparateLeaseRenewer();
		this.lockTemplate = new LockTemplate(client, waiter, this.settings);
	}

	/**
	 * Set the lease time of the leadership lock: how long after a crash of the leader
	 * another instance takes over; {@link #DEFAULT_TTL ten seconds} by default. Renewed
	 * every third of it, so at least {@link LockRequest#MIN_RENEWED_TTL}.
	 * @param ttl the lease time
	 * @throws IllegalArgumentException if the ttl is shorter than renewal can keep, or
	 * longer than {@link LockRequest#MAX_TTL}
	 */
	public void setTtl(Duration ttl) {
		LockRequest.of(this.name, ttl, Duration.ZERO);
		if (ttl.compareTo(LockRequest.MIN_RENEWED_TTL) < 0) {
			throw new IllegalArgumentException("Leader election '" + this.name + "': a ttl of " + ttl.toMillis()
					+ "ms is too short for a lease that is renewed: it must be at least "
					+ LockRequest.MIN_RENEWED_TTL.toMillis() + "ms (LockRequest.MIN_RENEWED_TTL). Use a longer ttl, "
					+ "such as Duration.ofSeconds(" + ttl.toMillis() + ") if " + ttl.toMillis()
					+ " seconds were meant");
		}
		this.ttl = ttl;
	}

	/**
	 * Set the scheduler that renews the leadership lock and whose clock times its lease,
	 * instead of a scheduler of its own with a monotonic clock; not shut down on stop.
	 * @param renewalScheduler the scheduler, or {@code null} for one of its own
	 */
	void setRenewalScheduler(@Nullable TaskScheduler renewalScheduler) {
		this.renewalScheduler = renewalScheduler;
	}

	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	/**
	 * Return the name of the leadership, which is also its lock key.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Tell whether this instance is the leader now: it holds the leadership lock, no
	 * renewal found it lost, and its lease has not run out by the renewer's clock (after
	 * a pause longer than the ttl, this answers {@code false} at once, before any renewal
	 * ran). It turns {@code false} as soon as the loss is found, before any lock listener
	 * or {@link LeadershipRevokedEvent} listener runs.
	 * @return whether this instance leads
	 */
	public boolean isLeader() {
		return current() != null;
	}

	/**
	 * Return the fencing token of this instance's leadership, for fencing the leader's
	 * writes: greater than that of every leader before. Empty whenever
	 * {@link #isLeader()} answers {@code false}.
	 * @return the fencing token, or empty when this instance does not lead
	 */
	public OptionalLong getFencingToken() {
		Leadership current = current();
		return (current != null) ? OptionalLong.of(current.lock().fencingToken()) : OptionalLong.empty();
	}

	private @Nullable Leadership current() {
		Leadership current = this.leadership;
		if (current == null || current.lost().isDone()) {
			return null;
		}
		// The lease as this instance's template sees it: no remaining lease once it ran
		// out by the renewer's clock, or the lock was marked lost.
		long token = current.lock().fencingToken();
		for (HeldLock held : this.lockTemplate.getHeldLocks()) {
			// The registry is the application's: other locks are listed beside this one.
			if (held.key().equals(this.name) && held.name().equals(LOCK_NAME) && held.fencingToken() == token
					&& held.leaseRemaining() != null) {
				return current;
			}
		}
		return null;
	}

	/**
	 * Start contending for the leadership, on a thread of its own.
	 */
	@Override
	public void start() {
		synchronized (this.monitor) {
			if (this.running) {
				return;
			}
			this.running = true;
			// A renewer of its own per run: stopping closes it for good.
			TaskScheduler scheduler = this.renewalScheduler;
			LeaseRenewer renewer = (scheduler != null) ? new LeaseRenewer(this.client, LIFETIME, scheduler)
					: new LeaseRenewer(this.client, LIFETIME);
			this.renewer = renewer;
			this.settings.setLeaseRenewer(renewer);
			Thread thread = new Thread(this::contend, "distlock-leader-" + this.name);
			thread.setDaemon(true);
			this.contender = thread;
			thread.start();
		}
	}

	/**
	 * Stop contending, and give the leadership up if this instance has it: the lock is
	 * released, so that another instance takes over at once. Not final: {@link #start()}
	 * contends again. Spring's {@code pause()} of the context stops it too, so that a
	 * paused context (a test context kept in the context cache) does not hold the
	 * leadership, and its {@code restart()} starts it again.
	 */
	@Override
	public void stop() {
		Thread thread;
		synchronized (this.monitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			thread = this.contender;
			this.contender = null;
		}
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(this.ttl.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		Leadership current = this.leadership;
		this.leadership = null;
		if (current != null) {
			try {
				current.lock().close();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not give up the leadership '" + this.name + "'; it expires after its ttl of "
						+ this.ttl.toMillis() + "ms", ex);
			}
			if (!current.lost().isDone()) {
				publish(new LeadershipRevokedEvent(this, this.name, current.lock().fencingToken(),
						LeadershipRevokedEvent.Reason.STOPPED));
			}
		}
		LeaseRenewer renewer = this.renewer;
		if (renewer != null) {
			renewer.close();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Return the lifecycle phase: the leadership is given up before the lease renewer and
	 * the connections it needs stop.
	 * @return {@code SmartLifecycle.DEFAULT_PHASE - 1024}
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 1024;
	}

	private void contend() {
		LockRequest request = LockRequest.of(this.name, this.ttl, ATTEMPT).withName(LOCK_NAME);
		while (this.running) {
			Optional<LockHandle> lock;
			try {
				lock = this.lockTemplate.tryAcquire(request);
			}
			catch (LockAcquisitionException ex) {
				// Interrupted: stopping.
				continue;
			}
			catch (RuntimeException ex) {
				// Redis unreachable (LockBackendException), or anything else: the thread
				// must go on contending, or this instance would never lead again.
				logger.warn("Could not contend for the leadership '" + this.name + "'; trying again in "
						+ RETRY_AFTER_FAILURE.toMillis() + "ms: " + ex);
				pause();
				continue;
			}
			if (lock.isPresent()) {
				lead(lock.get());
			}
		}
	}

	private void lead(LockHandle lock) {
		CompletableFuture<Void> lost = new CompletableFuture<>();
		lock.whenLost().thenRun(() -> lost.complete(null));
		Leadership current = new Leadership(lock, lost);
		synchronized (this.monitor) {
			if (!this.running) {
				// Stopped while the lock was taken: give it back at once.
				lock.close();
				return;
			}
			this.leadership = current;
		}
		logger.info("This instance leads '" + this.name + "' (fencing token " + lock.fencingToken() + ")");
		publish(new LeadershipGrantedEvent(this, this.name, lock.fencingToken()));
		try {
			lost.get();
		}
		catch (InterruptedException ex) {
			// Stopping: stop() gives the leadership up.
			return;
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
		this.leadership = null;
		logger.warn("This instance lost the leadership '" + this.name + "' (fencing token " + lock.fencingToken()
				+ "); contending again");
		try {
			lock.close();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not release the lost leadership lock '" + this.name + "'", ex);
		}
		publish(new LeadershipRevokedEvent(this, this.name, lock.fencingToken(), LeadershipRevokedEvent.Reason.LOST));
	}

	private void publish(ApplicationEvent event) {
		try {
			this.publisher.publishEvent(event);
		}
		catch (RuntimeException ex) {
			// A failing listener must not end the contender thread: the leadership would
			// stop being renewed, and this instance would never contend again.
			logger.error("A listener of " + event + " failed; the leadership '" + this.name + "' goes on regardless",
					ex);
		}
	}

	private void pause() {
		try {
			Thread.sleep(RETRY_AFTER_FAILURE.toMillis());
		}
		catch (InterruptedException ex) {
			// Stopping: the loop ends.
		}
	}

	private record Leadership(LockHandle lock, CompletableFuture<Void> lost) {

	}

}
