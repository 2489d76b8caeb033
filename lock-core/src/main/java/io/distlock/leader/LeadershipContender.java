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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.lease.LeaseRenewer;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;

/**
 * One run of a {@link LeaderElection}, from its {@code start()} to its {@code stop()}:
 * contends for the leadership lock on a thread of its own, holds it while it leads,
 * announces the leadership and its loss, contends again after a loss, and gives the
 * leadership up when stopped.
 *
 * <p>
 * The events are published on the contending thread; a listener that throws is logged,
 * and the leadership goes on regardless.
 */
final class LeadershipContender {

	// How long one attempt waits before the loop checks that it still runs.
	private static final Duration ATTEMPT = Duration.ofMinutes(1);

	private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(1);

	// Logs as the election: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LeaderElection.class);

	private final LeaderElection election;

	private final String name;

	private final Duration ttl;

	private final LeaseRenewer renewer;

	private final LockTemplate lockTemplate;

	private final ApplicationEventPublisher publisher;

	private final Object monitor = new Object();

	private volatile @Nullable Leadership leadership;

	private volatile boolean running = true;

	private final Thread thread;

	/**
	 * Create the run of the given election.
	 * @param election the election, the source of the events
	 * @param ttl the lease time of the leadership lock
	 * @param renewer the renewer of this run alone, closed when it stops
	 * @param lockTemplate the template that takes, renews (with that renewer) and lists
	 * the leadership lock
	 * @param publisher publishes the leadership events
	 */
	LeadershipContender(LeaderElection election, Duration ttl, LeaseRenewer renewer, LockTemplate lockTemplate,
			ApplicationEventPublisher publisher) {
		this.election = election;
		this.name = election.getName();
		this.ttl = ttl;
		this.renewer = renewer;
		this.lockTemplate = lockTemplate;
		this.publisher = publisher;
		this.thread = new Thread(this::contend, "distlock-leader-" + this.name);
		this.thread.setDaemon(true);
	}

	/**
	 * Start contending, on the thread of this run.
	 */
	void start() {
		this.thread.start();
	}

	/**
	 * Return the leadership of this run while it holds it: no renewal found it lost, and
	 * its lease has not run out by the renewer's clock.
	 * @return the leadership, or {@code null} if this run does not lead now
	 */
	@Nullable Leadership current() {
		Leadership current = this.leadership;
		return (current != null && current.isCurrent(this.name, this.lockTemplate)) ? current : null;
	}

	/**
	 * Stop contending, and give the leadership up if this run has it: the lock is
	 * released, so that another instance takes over at once. Then close the renewer of
	 * this run, for good.
	 */
	void stop() {
		synchronized (this.monitor) {
			this.running = false;
		}
		this.thread.interrupt();
		try {
			this.thread.join(this.ttl.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
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
				publish(new LeadershipRevokedEvent(this.election, this.name, current.lock().fencingToken(),
						LeadershipRevokedEvent.Reason.STOPPED));
			}
		}
		this.renewer.close();
	}

	private void contend() {
		LockRequest request = LockRequest.of(this.name, this.ttl, ATTEMPT).withName(Leadership.LOCK_NAME);
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
		publish(new LeadershipGrantedEvent(this.election, this.name, lock.fencingToken()));
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
		publish(new LeadershipRevokedEvent(this.election, this.name, lock.fencingToken(),
				LeadershipRevokedEvent.Reason.LOST));
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

}
