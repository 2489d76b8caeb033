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

package io.distlock.docs;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;

import io.distlock.LockContext;

import org.springframework.scheduling.annotation.Scheduled;

/**
 * The "Coming from ShedLock" job: a ShedLock job unchanged, its lock now distlock's.
 */
public class NightlyReport {

	private final List<Long> writtenWithTokens = new CopyOnWriteArrayList<>();

	@Scheduled(cron = "0 0 2 * * *")
	@SchedulerLock(name = "nightly-report", lockAtMostFor = "10m", lockAtLeastFor = "1m")
	public void run() {
		// The lock ShedLock took is a distlock lock: its fencing token goes with the
		// report's writes, so that a run that outlived lockAtMostFor is refused.
		long token = LockContext.require().fencingToken();
		this.writtenWithTokens.add(token);
	}

	public List<Long> writtenWithTokens() {
		return this.writtenWithTokens;
	}

}
