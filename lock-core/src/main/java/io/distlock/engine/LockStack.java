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
import io.distlock.LockListener;
import io.distlock.store.LockClient;
import io.distlock.lease.LeaseRenewer;
import io.distlock.waiting.LockWaiter;

/**
 * What the blocking pipeline of one front door runs on: its store and waiter, the
 * acquirers over them, and the shared {@link LockSettings}, read on every acquisition.
 */
final class LockStack {

	private final LockClient client;

	private final LockWaiter waiter;

	private final LockSettings settings;

	private final LockAcquirer acquirer;

	private final LocalQueues localQueues;

	private final LockObservations observations;

	private final LeaseRenewer defaultRenewer;

	private final SettingsListeners listeners;

	LockStack(LockClient client, LockWaiter waiter, LockSettings settings, LockListener ownListener) {
		this.client = client;
		this.waiter = waiter;
		this.settings = settings;
		this.listeners = new SettingsListeners(settings, ownListener);
		this.acquirer = new LockAcquirer(client, waiter);
		this.localQueues = new LocalQueues(client, waiter);
		this.observations = new LockObservations(settings);
		this.defaultRenewer = new LeaseRenewer(client, Duration.ofHours(1));
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

	LockAcquirer acquirer() {
		return this.acquirer;
	}

	LocalQueues localQueues() {
		return this.localQueues;
	}

	LockObservations observations() {
		return this.observations;
	}

	/**
	 * Return the key of the given lock key in the store: with the key prefix.
	 */
	String resource(String key) {
		return this.settings.getKeyPrefix() + key;
	}

	/**
	 * Return the renewer of the settings, or this stack's own when none is set.
	 */
	/**
	 * Make the owner token of a new acquisition by the calling thread (see
	 * {@link LockSettings#setDescribeHolders(boolean)}).
	 */
	String newOwnerToken(String name) {
		return this.settings.newOwnerToken(name, renewer().getClock());
	}

	LeaseRenewer renewer() {
		LeaseRenewer renewer = this.settings.getLeaseRenewer();
		return (renewer != null) ? renewer : this.defaultRenewer;
	}

	/**
	 * Return this front door's own listener followed by the listeners of the settings.
	 */
	LockListener listener() {
		return this.listeners.listener();
	}

}
