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

package io.distlock.benchmarks.contenders;

/**
 * distlock through a {@code @DistributedLocked} method called on its Spring proxy: the
 * same template as {@link DistlockTemplateContender}, plus the interceptor (key
 * expression, reentrancy check, lock context). With {@code autoRenew = false} on the
 * annotation, its like is the template contender with {@code withAutoRenew(false)}.
 */
public final class DistlockAnnotationContender implements LockContender {

	private final DistlockApplication application;

	private final DistlockApplication.LockedWork work;

	private final boolean autoRenew;

	/**
	 * Start the application on the given Redis.
	 * @param address the Redis
	 * @param autoRenew whether to call the method whose annotation keeps the default
	 * {@code autoRenew = true}, or the one with {@code autoRenew = false}
	 */
	public DistlockAnnotationContender(RedisAddress address, boolean autoRenew) {
		this.application = DistlockApplication.start(address);
		this.work = this.application.lockedWork();
		this.autoRenew = autoRenew;
	}

	@Override
	public void withLock(String key, Runnable body) {
		if (this.autoRenew) {
			this.work.run(key, body);
		}
		else {
			this.work.runWithoutRenewal(key, body);
		}
	}

	@Override
	public void close() {
		this.application.close();
	}

}
