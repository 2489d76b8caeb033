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
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import io.distlock.LockRequest;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

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

	// Leadership is held for the life of the instance; a century is as long as that.
	private static final Duration LIFETIME = Duration.ofDays(365L * 100);

	private final String name;

	private final LockEngine engine;

	private final Object monitor = new Object();

	private Duration ttl = DEFAULT_TTL;

	private ApplicationEventPublisher publisher = (event) -> {
	};

	private volatile boolean running;

	// The current run, or the last one once stopped.
	private volatile @Nullable LeadershipContender contender;

	private @Nullable TaskScheduler renewalScheduler;

	/**
	 * Create an election for the lock of the given name in the given store, on an engine
	 * of its own with the default settings.
	 * @param client the lock store
	 * @param waiter the waiter that release notifications signal, so that a graceful
	 * handover wakes a contender at once
	 * @param name the name of the leadership, which is the lock key
	 */
	public LeaderElection(LockClient client, LockWaiter waiter, String name) {
		this(new LockEngine(client, waiter, LockSettings.defaults()), name);
	}

	/**
	 * Create an election for the lock of the given name on the application's engine: its
	 * key prefix, listeners and observations, and its registry of held locks, so that the
	 * leadership lock is listed with the application's other locks. The leadership lock
	 * is renewed by a renewer of the election's own, without the engine's maximum hold
	 * time.
	 * @param engine the engine shared with the application's other front doors
	 * @param name the name of the leadership, which is the lock key
	 */
	public LeaderElection(LockEngine engine, String name) {
		Assert.notNull(engine, "'engine' must not be null");
		LockRequest.of(name, DEFAULT_TTL, Duration.ZERO);
		this.name = name;
		this.engine = engine;
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
		LeadershipContender contender = this.contender;
		return contender != null && contender.current() != null;
	}

	/**
	 * Return the fencing token of this instance's leadership, for fencing the leader's
	 * writes: greater than that of every leader before. Empty whenever
	 * {@link #isLeader()} answers {@code false}.
	 * @return the fencing token, or empty when this instance does not lead
	 */
	public OptionalLong getFencingToken() {
		LeadershipContender contender = this.contender;
		Leadership current = (contender != null) ? contender.current() : null;
		return (current != null) ? OptionalLong.of(current.lock().fencingToken()) : OptionalLong.empty();
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
			LockClient client = this.engine.getClient();
			LeaseRenewer renewer = (scheduler != null) ? new LeaseRenewer(client, LIFETIME, scheduler)
					: new LeaseRenewer(client, LIFETIME);
			LockTemplate lockTemplate = new LockTemplate(this.engine.withLeaseRenewer(renewer));
			// The publisher as set when an event is published.
			LeadershipContender contender = new LeadershipContender(this, this.ttl, renewer, lockTemplate,
					(event) -> this.publisher.publishEvent(event));
			this.contender = contender;
			contender.start();
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
		LeadershipContender contender;
		synchronized (this.monitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			contender = this.contender;
		}
		if (contender != null) {
			contender.stop();
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

}
