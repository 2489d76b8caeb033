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

package io.distlock.sample.demo;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of the demo.
 *
 * @param nodes the names of the nodes
 * @param unlocked the race without the lock
 * @param locked the race with {@code @DistributedLocked}
 * @param longWork the long-work check, if it ran
 */
public record DemoResult(List<String> nodes, RaceResult unlocked, RaceResult locked,
		@Nullable LongWorkResult longWork) {

	/**
	 * Return whether the locked run kept the data right: nothing oversold, no stock
	 * update lost, and the long work held its lock throughout.
	 * @return whether the lock did its job
	 */
	public boolean isSafe() {
		return this.locked.oversold() == 0 && this.locked.lostUpdates() == 0
				&& (this.longWork == null || this.longWork.isSafe());
	}

}
