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

import java.util.List;

import io.distlock.redis.RedisReleaseNotifier;

import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops one {@link RedisReleaseNotifier} per Redlock node, so that a release
 * published on any node wakes the application's waiters.
 */
class RedlockReleaseNotifiers implements SmartLifecycle {

	private final List<RedisReleaseNotifier> notifiers;

	RedlockReleaseNotifiers(List<RedisReleaseNotifier> notifiers) {
		this.notifiers = notifiers;
	}

	@Override
	public void start() {
		this.notifiers.forEach(RedisReleaseNotifier::start);
	}

	@Override
	public void stop() {
		this.notifiers.forEach(RedisReleaseNotifier::stop);
	}

	@Override
	public boolean isRunning() {
		return this.notifiers.stream().anyMatch(RedisReleaseNotifier::isRunning);
	}

	/**
	 * Tell whether waiters are woken on release: a release is published on every node it
	 * was held on, so one node's subscription being up is enough.
	 */
	boolean isSubscribed() {
		return this.notifiers.stream().anyMatch(RedisReleaseNotifier::isSubscribed);
	}

	@Override
	public int getPhase() {
		return RedisReleaseNotifier.DEFAULT_PHASE;
	}

}
