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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.distlock.LockListener;
import io.distlock.LockSettings;
import io.distlock.LockStatistics;
import io.distlock.lease.LeaseRenewer;
import io.distlock.store.LockClient;
import io.distlock.store.LockHolder;
import io.distlock.waiting.LockWaiter;

/**
 * What a {@link LockEngine} runs on: its store, waiter and settings, and what all its
 * front doors share (the registry of held locks, the waiting callers, the owner tokens,
 * one local queue per key, the statistics and the listeners), with the lease renewer of
 * the engine or of a view of it.
 */
final class EngineParts {

	private final LockClient client;

	private final LockWaiter waiter;

	private final LockSettings settings;

	private final StoreAcquirer acquirer;

	private final LocalQueues localQueues;

	private final LockObservations observations;

	private final HeldLockRegistry heldLocks;

	private final WaitingLocks waitingLocks;

	private final OwnerTokens ownerTokens;

	private final LockStatistics statistics;

	private final LockListener listener;

	private final LeaseRenewer renewer;

	EngineParts(LockClient client, LockWaiter waiter, LockSettings settings, LeaseRenewer renewer) {
		this.client = client;
		this.waiter = waiter;
		this.settings = settings;
		this.acquirer = new StoreAcquirer(client, waiter);
		this.localQueues = new LocalQueues(client, waiter);
		this.observations = new LockObservations(settings);
		this.heldLocks = new HeldLockRegistry();
		this.waitingLocks = new WaitingLocks();
		this.ownerTokens = new OwnerTokens();
		this.statistics = new LockStatistics();
		List<LockListener> listeners = new ArrayList<>(settings.getLockListeners().size() + 1);
		listeners.add(this.statistics.counter());
		listeners.addAll(settings.getLockListeners());
		this.listener = LockListener.composite(listeners);
		this.renewer = renewer;
	}

	private EngineParts(EngineParts parts, LeaseRenewer renewer) {
		this.client = parts.client;
		this.waiter = parts.waiter;
		this.settings = parts.settings;
		this.acquirer = parts.acquirer;
		this.localQueues = parts.localQueues;
		this.observations = parts.observations;
		this.heldLocks = parts.heldLocks;
		this.waitingLocks = parts.waitingLocks;
		this.ownerTokens = parts.ownerTokens;
		this.statistics = parts.statistics;
		this.listener = parts.listener;
		this.renewer = renewer;
	}

	/**
	 * Return parts that share everything with these but the lease renewer.
	 */
	EngineParts withRenewer(LeaseRenewer renewer) {
		return new EngineParts(this, renewer);
	}

	/**
	 * Return the renewer of an engine that is given none: one of its own, with a maximum
	 * hold time of one hour.
	 */
	static LeaseRenewer defaultRenewer(LockClient client) {
		return new LeaseRenewer(client, Duration.ofHours(1));
	}

	LockClient client() {
		return this.client;
	}

	LockWaiter waiter() {
		return this.waiter;
	}

	LockSettings settings() {
		return this.settings;
	}

	StoreAcquirer acquirer() {
		return this.acquirer;
	}

	LocalQueues localQueues() {
		return this.localQueues;
	}

	LockObservations observations() {
		return this.observations;
	}

	HeldLockRegistry heldLocks() {
		return this.heldLocks;
	}

	WaitingLocks waitingLocks() {
		return this.waitingLocks;
	}

	LockStatistics statistics() {
		return this.statistics;
	}

	String resource(String key) {
		return this.settings.getKeyPrefix() + key;
	}

	/**
	 * Make the owner token of a new acquisition by the calling thread: unguessable, and
	 * describing its holder unless the settings turn that off.
	 */
	String newOwnerToken(String name) {
		String secret = this.ownerTokens.next();
		if (!this.settings.isDescribeHolders()) {
			return secret;
		}
		return new LockHolder(this.settings.getInstanceName(), Thread.currentThread().getName(), name,
				this.renewer.getClock().instant())
			.ownerToken(secret);
	}

	LeaseRenewer renewer() {
		return this.renewer;
	}

	LockListener listener() {
		return this.listener;
	}

}
