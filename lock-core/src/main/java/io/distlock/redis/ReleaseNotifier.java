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

package io.distlock.redis;

/**
 * How a {@link RedisReleaseNotifier} hears of releases: through one pattern subscription
 * ({@link ClassicReleaseNotifier}) or through sharded channels subscribed per waited-for
 * lock on Redis Cluster ({@link ShardedReleaseNotifier}).
 */
interface ReleaseNotifier {

	/**
	 * Start following releases; Redis being unreachable does not fail the start.
	 */
	void start();

	/**
	 * Stop following releases; {@link #start()} may follow them again.
	 */
	void stop();

	/**
	 * Tell whether this notifier was started and not stopped since.
	 */
	boolean isRunning();

	/**
	 * Tell whether releases reach the waiters now.
	 */
	boolean isSubscribed();

	/**
	 * Stop and release the resources of the subscriptions for good.
	 */
	void close();

}
