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

package io.distlock.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.distlock.LockListener;
import io.distlock.store.LockHolder;
import io.distlock.lease.LeaseRenewer;
import io.distlock.observation.DefaultLockObservationConvention;
import io.distlock.observation.LockObservationConvention;

import org.springframework.util.Assert;

/**
 * The settings that every front door built on it shares: {@code LockTemplate},
 * {@code ReactiveLockTemplate} and {@code LeaderElection}. One object holds the key
 * prefix, the lease renewer, the listeners and the observation setup, and the one
 * registry of the locks they hold, which the {@code locks} endpoint lists and shutdown
 * releases.
 *
 * <p>
 * Set it up before the first lock is taken; a front door reads it on every acquisition.
 * The setters validate their argument, here and nowhere else.
 */
public final class LockSettings {

	/**
	 * The default key prefix, so that lock keys stand apart from the application's data.
	 */
	public static final String DEFAULT_KEY_PREFIX = "lock:";

	/**
	 * The longest instance name, in characters.
	 */
	public static final int MAX_INSTANCE_NAME_LENGTH = 100;

	private final Shared shared;

	private volatile @Nullable LeaseRenewer leaseRenewer;

	/**
	 * Create settings with the defaults: key prefix {@value #DEFAULT_KEY_PREFIX}, no
	 * listeners, no observations, and no lease renewer of their own.
	 */
	public LockSettings() {
		this(new Shared());
	}

	private LockSettings(Shared shared) {
		this.shared = shared;
	}

	/**
	 * Return settings that share everything with these, the held-lock registry included,
	 * but the lease renewer, which is set on them alone: for a front door with a renewer
	 * of its own, as leader election has.
	 * @return the settings, without a lease renewer
	 */
	public LockSettings withSeparateLeaseRenewer() {
		return new LockSettings(this.shared);
	}

	/**
	 * Set the prefix put before every key in the store; {@value #DEFAULT_KEY_PREFIX} by
	 * default.
	 * @param keyPrefix the key prefix, may be empty; no control characters, as in keys
	 * @throws IllegalArgumentException if the prefix is null or holds a control character
	 */
	public void setKeyPrefix(String keyPrefix) {
		Assert.isTrue(keyPrefix != null, "'keyPrefix' must not be null");
		for (int i = 0; i < keyPrefix.length(); i++) {
			if (Character.isISOControl(keyPrefix.charAt(i))) {
				throw new IllegalArgumentException("'keyPrefix' must not contain control characters but was '"
						+ InstanceNames.escape(keyPrefix) + "'");
			}
		}
		this.shared.keyPrefix = keyPrefix;
	}

	/**
	 * Return the prefix put before every key in the store.
	 * @return the key prefix
	 */
	public String getKeyPrefix() {
		return this.shared.keyPrefix;
	}

	/**
	 * Set the name of this instance of the application, which operators recognise: shown
	 * with what this instance holds and waits for. By default the host name and the
	 * process id ({@code host:4242}).
	 * @param instanceName the name: not blank, at most {@value #MAX_INSTANCE_NAME_LENGTH}
	 * characters, no control characters
	 * @throws IllegalArgumentException if the name is not valid
	 */
	public void setInstanceName(String instanceName) {
		Assert.isTrue(instanceName != null && !instanceName.isBlank(), "'instanceName' must not be blank");
		Assert.isTrue(instanceName.length() <= MAX_INSTANCE_NAME_LENGTH, () -> "'instanceName' must be at most "
				+ MAX_INSTANCE_NAME_LENGTH + " characters but was " + instanceName.length());
		Assert.isTrue(instanceName.chars().noneMatch(Character::isISOControl),
				() -> "'instanceName' must not contain control characters but was '"
						+ InstanceNames.escape(instanceName) + "'");
		this.shared.instanceName = instanceName;
	}

	/**
	 * Return the name of this instance of the application.
	 * @return the instance name
	 */
	public String getInstanceName() {
		return this.shared.instanceName;
	}

	/**
	 * Return the default instance name: the host name and the process id, as in
	 * {@code host:4242}.
	 * @return the default instance name
	 */
	public static String defaultInstanceName() {
		return InstanceNames.defaultName();
	}

	/**
	 * Set whether each lock keeps the description of its holder: this instance's name,
	 * the thread, the lock's name and the time, which {@code GET /actuator/locks/{key}}
	 * shows on any instance and a busy {@code LockAcquisitionException} names. On by
	 * default; it travels in the owner token (see {@link io.distlock.store.LockHolder}),
	 * so it costs no Redis command, only the bytes of the description on each call that
	 * carries the token.
	 * @param describeHolders whether to describe holders
	 */
	public void setDescribeHolders(boolean describeHolders) {
		this.shared.describeHolders = describeHolders;
	}

	/**
	 * Return whether each lock keeps the description of its holder.
	 * @return whether holders are described
	 */
	public boolean isDescribeHolders() {
		return this.shared.describeHolders;
	}

	/**
	 * Make the owner token of a new acquisition by the calling thread: unguessable, and
	 * describing its holder unless {@link #setDescribeHolders(boolean) turned off}.
	 */
	String newOwnerToken(String name, Clock clock) {
		String secret = this.shared.ownerTokens.next();
		if (!this.shared.describeHolders) {
			return secret;
		}
		return new LockHolder(this.shared.instanceName, Thread.currentThread().getName(), name, clock.instant())
			.ownerToken(secret);
	}

	/**
	 * Set the watchdog that renews the leases of auto-renewed locks; by default each
	 * {@code LockTemplate} has one of its own, with a maximum hold time of one hour.
	 * @param leaseRenewer the lease renewer
	 */
	public void setLeaseRenewer(LeaseRenewer leaseRenewer) {
		Assert.notNull(leaseRenewer, "'leaseRenewer' must not be null");
		this.leaseRenewer = leaseRenewer;
	}

	/**
	 * Return the watchdog set with {@link #setLeaseRenewer(LeaseRenewer)}.
	 * @return the lease renewer, or {@code null} if none was set
	 */
	public @Nullable LeaseRenewer getLeaseRenewer() {
		return this.leaseRenewer;
	}

	/**
	 * Set listeners to tell about lock events.
	 * @param listeners the listeners, in the order they are told
	 */
	public void setLockListeners(List<? extends LockListener> listeners) {
		Assert.notNull(listeners, "'listeners' must not be null");
		Assert.noNullElements(listeners, "'listeners' must not contain null elements");
		this.shared.listeners = List.copyOf(new ArrayList<>(listeners));
	}

	/**
	 * Return the listeners told about lock events.
	 * @return the listeners
	 */
	public List<LockListener> getLockListeners() {
		return this.shared.listeners;
	}

	/**
	 * Set the registry to record observations of waiting for locks and of holding them
	 * with: a span and a timer each, when tracing and metrics are set up on it; none by
	 * default.
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		Assert.notNull(observationRegistry, "'observationRegistry' must not be null");
		this.shared.observationRegistry = observationRegistry;
	}

	/**
	 * Set the convention that names lock observations and their tags, instead of the
	 * {@link DefaultLockObservationConvention}.
	 * @param observationConvention the convention, or {@code null} for the default
	 */
	public void setObservationConvention(@Nullable LockObservationConvention observationConvention) {
		this.shared.customConvention = observationConvention;
	}

	ObservationRegistry observationRegistry() {
		return this.shared.observationRegistry;
	}

	@Nullable LockObservationConvention customConvention() {
		return this.shared.customConvention;
	}

	LockObservationConvention defaultConvention() {
		return this.shared.defaultConvention;
	}

	HeldLockRegistry heldLocks() {
		return this.shared.heldLocks;
	}

	/**
	 * Return the callers of these settings' front doors that wait for a lock now, and how
	 * much they have waited for each lock name: shared, as the held locks are, with the
	 * settings derived from these.
	 * @return the waiting callers
	 */
	public WaitingLocks getWaitingLocks() {
		return this.shared.waitingLocks;
	}

	/**
	 * What the settings derived from one another share.
	 */
	private static final class Shared {

		private final HeldLockRegistry heldLocks = new HeldLockRegistry();

		private final WaitingLocks waitingLocks = new WaitingLocks();

		private final LockObservationConvention defaultConvention = new DefaultLockObservationConvention();

		private volatile String keyPrefix = DEFAULT_KEY_PREFIX;

		private volatile String instanceName = defaultInstanceName();

		private final OwnerTokens ownerTokens = new OwnerTokens();

		private volatile boolean describeHolders = true;

		private volatile List<LockListener> listeners = List.of();

		private volatile ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

		private volatile @Nullable LockObservationConvention customConvention;

	}

}
