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

package io.distlock.faults.client;

import java.util.concurrent.TimeUnit;

/**
 * Records when the client JVM did not run: a thread that sleeps a few milliseconds at a
 * time and writes a {@code stall} event whenever it woke up much later than asked (a GC
 * pause, a starved CPU on a busy machine, or a SIGSTOP from the test). The checker does
 * not blame a waiter for time its JVM was not running.
 */
final class StallRecorder implements Runnable {

	private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final String client;

	private final HistoryWriter history;

	private StallRecorder(String client, HistoryWriter history) {
		this.client = client;
		this.history = history;
	}

	static void start(String client, HistoryWriter history) {
		Thread thread = new Thread(new StallRecorder(client, history), client + "-stall-recorder");
		thread.setDaemon(true);
		thread.setPriority(Thread.MAX_PRIORITY);
		thread.start();
	}

	@Override
	public void run() {
		while (true) {
			long before = System.nanoTime();
			try {
				TimeUnit.NANOSECONDS.sleep(TICK_NANOS);
			}
			catch (InterruptedException ex) {
				return;
			}
			long after = System.nanoTime();
			if (after - before - TICK_NANOS > STALL_NANOS) {
				this.history.event("stall", "c", this.client, "start", before + TICK_NANOS, "end", after);
			}
		}
	}

}
