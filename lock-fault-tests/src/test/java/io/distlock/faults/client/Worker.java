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

import java.util.Optional;
import java.util.Random;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.faults.client.StorageClient.Result;
import org.jspecify.annotations.Nullable;

/**
 * One worker thread of a client JVM: until the deadline, it picks a key and a way to lock
 * it (the annotation or the template), and inside the critical section records its entry,
 * reads the fenced and the unfenced counter, works a while, writes both counters
 * incremented and records its exit. Every step goes to the history.
 */
final class Worker implements Runnable {

	private final ClientSettings settings;

	private final int index;

	private final LockTemplate template;

	private final LockedWork lockedWork;

	private final HistoryListener listener;

	private final HistoryWriter history;

	private final long deadline;

	private final Random random;

	private int sections;

	Worker(ClientSettings settings, int index, LockTemplate template, LockedWork lockedWork, HistoryListener listener,
			HistoryWriter history, long deadline) {
		this.settings = settings;
		this.index = index;
		this.template = template;
		this.lockedWork = lockedWork;
		this.listener = listener;
		this.history = history;
		this.deadline = deadline;
		this.random = new Random(settings.seed() * 31 + settings.id().hashCode() * 1009L + index);
	}

	@Override
	public void run() {
		try (StorageClient storage = StorageClient.connect(this.settings.storagePort())) {
			while (System.nanoTime() - this.deadline < 0) {
				String key = "k" + this.random.nextInt(this.settings.keys());
				int work = this.settings.workMinMillis()
						+ this.random.nextInt(this.settings.workMaxMillis() - this.settings.workMinMillis() + 1);
				String holder = this.settings.id() + "-w" + this.index + "-" + this.sections;
				if (this.random.nextBoolean()) {
					viaAnnotation(storage, key, holder, work);
				}
				else {
					viaTemplate(storage, key, holder, work);
				}
				sleep(this.random.nextInt(this.settings.thinkMaxMillis() + 1));
			}
		}
		catch (RuntimeException ex) {
			this.history.event("worker-failed", "c", this.settings.id(), "w", this.index, "error", ex.toString());
			throw ex;
		}
	}

	private void viaTemplate(StorageClient storage, String key, String holder, int work) {
		long start = System.nanoTime();
		Optional<LockHandle> acquired;
		try {
			acquired = this.template.tryAcquire(LockRequest.of(key, this.settings.ttl(), this.settings.waitTime()));
		}
		catch (LockBackendException | LockAcquisitionException ex) {
			attempt(key, "template", start, "error", ex);
			return;
		}
		attempt(key, "template", start, acquired.isPresent() ? "acquired" : "busy", null);
		if (acquired.isEmpty()) {
			return;
		}
		LockHandle handle = acquired.get();
		this.sections++;
		String outcome = "unconfirmed";
		try {
			section(storage, handle, key, holder, "template", work);
		}
		finally {
			try {
				handle.close();
				outcome = outcome(this.listener.takeReleaseOutcome());
			}
			catch (RuntimeException ex) {
				this.listener.takeReleaseOutcome();
				this.history.event("release-failed", "h", holder, "error", ex.toString());
			}
			release(holder, outcome);
		}
	}

	private void viaAnnotation(StorageClient storage, String key, String holder, int work) {
		long start = System.nanoTime();
		boolean[] entered = new boolean[1];
		try {
			this.lockedWork.run(key, (handle) -> {
				entered[0] = true;
				attempt(key, "annotation", start, "acquired", null);
				this.sections++;
				section(storage, handle, key, holder, "annotation", work);
			});
		}
		catch (LockAcquisitionException ex) {
			if (!entered[0]) {
				attempt(key, "annotation", start, "busy", null);
			}
		}
		catch (LockBackendException ex) {
			if (!entered[0]) {
				attempt(key, "annotation", start, "error", ex);
			}
		}
		finally {
			if (entered[0]) {
				release(holder, outcome(this.listener.takeReleaseOutcome()));
			}
		}
	}

	private void section(StorageClient storage, LockHandle handle, String key, String holder, String mode, int work) {
		long token = handle.fencingToken();
		Result enter = storage.op("enter", key, holder, token);
		this.history.event("enter", "h", holder, "c", this.settings.id(), "k", key, "tok", token, "seq", enter.seq(),
				"rt", enter.micros(), "ns", System.nanoTime(), "mode", mode);
		try {
			Result read = storage.op("read", key, holder, token);
			Result plainRead = storage.op("plain-read", key, holder, token);
			sleep(work);
			if (read.accepted()) {
				Result write = storage.op("write", key, holder, token, read.value(), read.value() + 1);
				this.history.event("write", "h", holder, "seq", write.seq(), "fenced", true, "ok", write.accepted(),
						"val", read.value() + 1);
			}
			else {
				this.history.event("write", "h", holder, "seq", read.seq(), "fenced", true, "ok", false, "skipped",
						"read rejected");
			}
			Result plain = storage.op("plain-write", key, holder, token, plainRead.value(), plainRead.value() + 1);
			this.history.event("write", "h", holder, "seq", plain.seq(), "fenced", false, "ok", true, "val",
					plainRead.value() + 1);
		}
		finally {
			Result exit = storage.op("exit", key, holder, token);
			this.history.event("exit", "h", holder, "seq", exit.seq(), "rt", exit.micros(), "ns", System.nanoTime());
		}
	}

	private void attempt(String key, String mode, long start, String outcome, @Nullable RuntimeException failure) {
		long end = System.nanoTime();
		if (failure != null) {
			this.history.event("attempt", "c", this.settings.id(), "k", key, "mode", mode, "wait",
					this.settings.waitTime().toNanos(), "start", start, "end", end, "outcome", outcome, "error",
					failure.toString());
		}
		else {
			this.history.event("attempt", "c", this.settings.id(), "k", key, "mode", mode, "wait",
					this.settings.waitTime().toNanos(), "start", start, "end", end, "outcome", outcome);
		}
	}

	private void release(String holder, String outcome) {
		this.history.event("release", "h", holder, "outcome", outcome, "ns", System.nanoTime());
	}

	private static String outcome(@Nullable String reported) {
		return (reported != null) ? reported : "unconfirmed";
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
