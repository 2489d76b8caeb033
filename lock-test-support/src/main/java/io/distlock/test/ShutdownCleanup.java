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

package io.distlock.test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A JVM shutdown hook that kills every {@code redis-server} the harness started and
 * deletes its directory, so a crashed or interrupted test run leaves no orphans.
 */
final class ShutdownCleanup {

	private static final Set<Process> processes = ConcurrentHashMap.newKeySet();

	private static final Set<WorkDirectory> directories = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ShutdownCleanup::run, "distlock-redis-cleanup"));
	}

	private ShutdownCleanup() {
	}

	static void track(Process process) {
		processes.add(process);
	}

	static void untrack(Process process) {
		processes.remove(process);
	}

	static void track(WorkDirectory directory) {
		directories.add(directory);
	}

	static void untrack(WorkDirectory directory) {
		directories.remove(directory);
	}

	private static void run() {
		// SIGKILL also ends a process that is paused with SIGSTOP.
		processes.forEach(Process::destroyForcibly);
		for (Process process : processes) {
			try {
				process.waitFor(2, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		directories.forEach(WorkDirectory::close);
	}

}
