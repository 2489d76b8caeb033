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

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockMode;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.MultiLockHandle;
import io.distlock.MultiLockRequest;
import io.distlock.faults.client.StorageClient.Result;
import org.jspecify.annotations.Nullable;

/**
 * One worker thread of a client JVM: until the deadline, it picks a key (or, in the
 * {@link Workload#MULTI} workload, sometimes two) and a way to lock it (the annotation or
 * the template), and inside the critical section records its entry, reads the fenced and
 * the unfenced counter, works a while, writes both counters incremented and records its
 * exit. A multi-key holder does so on each of its keys with that key's own token,
 * entering all of them before it works and leaving them after. A permit holder
 * ({@link Workload#PERMITS}) or a reader ({@link Workload#READ_WRITE}) only records its
 * entry and exit. Every step goes to the history.
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
				Workload workload = this.settings.workload();
				if (workload == Workload.PERMITS) {
					viaTemplate(storage, key, holder, work, "permit");
				}
				else if (workload == Workload.READ_WRITE && this.random.nextInt(3) < 2) {
					viaTemplate(storage, key, holder, work, "read");
				}
				else if (workload == Workload.READ_WRITE && this.random.nextBoolean()) {
					viaTemplate(storage, key, holder, work, "write");
				}
				else if (workload == Workload.MULTI && this.settings.keys() > 1 && this.random.nextBoolean()) {
					String other = "k"
							+ ((Integer.parseInt(key.substring(1)) + 1 + this.random.nextInt(this.settings.keys() - 1))
									% this.settings.keys());
					viaExecuteAll(storage, List.of(key, other), holder, work);
				}
				else if (this.random.nextBoolean()) {
					viaAnnotation(storage, key, holder, work);
				}
				else {
					viaTemplate(storage, key, holder, work, "template");
				}
				sleep(this.random.nextInt(this.settings.thinkMaxMillis() + 1));
			}
		}
		catch (RuntimeException ex) {
			this.history.event("worker-failed", "c", this.settings.id(), "w", this.index, "error", ex.toString());
			throw ex;
		}
	}

	/**
	 * Take the key through the template: {@code template} for the exclusive lock,
	 * {@code write} or {@code read} for that mode, or {@code permit} for one of its
	 * permits.
	 */
	private void viaTemplate(StorageClient storage, String key, String holder, int work, String mode) {
		LockRequest request = LockRequest.of(key, this.settings.ttl(), this.settings.waitTime());
		request = switch (mode) {
			case "permit" -> request.withPermits(this.settings.permits());
			case "read" -> request.withMode(LockMode.READ);
			case "write" -> request.withMode(LockMode.WRITE);
			default -> request;
		};
		long start = System.nanoTime();
		Optional<LockHandle> acquired;
		try {
			acquired = this.template.tryAcquire(request);
		}
		catch (LockBackendException | LockAcquisitionException ex) {
			attempt(key, mode, start, "error", ex);
			return;
		}
		attempt(key, mode, start, acquired.isPresent() ? "acquired" : "busy", null);
		if (acquired.isEmpty()) {
			return;
		}
		LockHandle handle = acquired.get();
		this.sections++;
		String outcome = "unconfirmed";
		try {
			if ("permit".equals(mode) || "read".equals(mode)) {
				sharedSection(storage, handle, key, holder, mode, work);
			}
			else {
				section(storage, handle, key, holder, mode, work);
			}
		}
		finally {
			try {
				handle.close();
				outcome = outcome(this.listener.takeReleaseOutcome(key));
			}
			catch (RuntimeException ex) {
				this.listener.takeReleaseOutcome(key);
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
				release(holder, outcome(this.listener.takeReleaseOutcome(key)));
			}
		}
	}

	/**
	 * Take both keys at once with {@code executeAll}; the acquisition is the holder's
	 * group, and each key's section is the holder {@code group:key}.
	 */
	private void viaExecuteAll(StorageClient storage, List<String> keys, String group, int work) {
		MultiLockRequest request = MultiLockRequest.of(keys, this.settings.ttl(), this.settings.waitTime());
		String attemptKey = String.join("+", request.keys());
		long start = System.nanoTime();
		List<String> entered = new ArrayList<>();
		boolean[] acquired = new boolean[1];
		try {
			this.template.executeAll(request, (locks) -> {
				acquired[0] = true;
				attempt(attemptKey, "multi", start, "acquired", null);
				this.sections++;
				multiSection(storage, locks, keys, group, work, entered);
				return null;
			}, (busy) -> {
				attempt(attemptKey, "multi", start, "busy", null);
				return null;
			});
		}
		catch (LockBackendException | LockAcquisitionException ex) {
			if (!acquired[0]) {
				attempt(attemptKey, "multi", start, "error", ex);
			}
		}
		finally {
			// executeAll released every key (or logged why it could not) before it
			// returned.
			for (String key : request.keys()) {
				String outcome = outcome(this.listener.takeReleaseOutcome(key));
				if (entered.contains(key)) {
					release(group + ":" + key, outcome);
				}
			}
		}
	}

	private void multiSection(StorageClient storage, MultiLockHandle locks, List<String> asked, String group, int work,
			List<String> entered) {
		// What the handle holds, before any section: the checker compares it with what
		// was asked for and with the sections.
		this.history.event("multi", "g", group, "c", this.settings.id(), "keys", String.join(",", asked), "held",
				locks.keys()
					.stream()
					.map((key) -> key + "=" + locks.fencingToken(key))
					.collect(Collectors.joining(",")));
		try {
			for (String key : locks.keys()) {
				enter(storage, key, group + ":" + key, locks.fencingToken(key), "multi", group, 1);
				entered.add(key);
			}
			List<Result[]> reads = new ArrayList<>();
			for (String key : locks.keys()) {
				reads.add(read(storage, key, group + ":" + key, locks.fencingToken(key)));
			}
			sleep(work);
			for (int i = 0; i < locks.keys().size(); i++) {
				String key = locks.keys().get(i);
				write(storage, key, group + ":" + key, locks.fencingToken(key), reads.get(i));
			}
		}
		finally {
			for (String key : entered) {
				exit(storage, key, group + ":" + key, locks.fencingToken(key));
			}
		}
	}

	private void section(StorageClient storage, LockHandle handle, String key, String holder, String mode, int work) {
		long token = handle.fencingToken();
		enter(storage, key, holder, token, mode, "", 1);
		try {
			Result[] read = read(storage, key, holder, token);
			sleep(work);
			write(storage, key, holder, token, read);
		}
		finally {
			exit(storage, key, holder, token);
		}
	}

	/**
	 * The section of a permit or read holder: entry and exit only. The key's counters are
	 * not for it: permit holders share the key, and readers share their token (the latest
	 * writer's), which the storage would take for a duplicate.
	 */
	private void sharedSection(StorageClient storage, LockHandle handle, String key, String holder, String mode,
			int work) {
		long token = handle.fencingToken();
		enter(storage, key, holder, token, mode, "", "permit".equals(mode) ? this.settings.permits() : 1);
		try {
			sleep(work);
		}
		finally {
			exit(storage, key, holder, token);
		}
	}

	private void enter(StorageClient storage, String key, String holder, long token, String mode, String group,
			int permits) {
		Result enter = storage.op("enter", key, holder, token);
		if (!group.isEmpty()) {
			this.history.event("enter", "h", holder, "c", this.settings.id(), "k", key, "tok", token, "seq",
					enter.seq(), "rt", enter.micros(), "ns", System.nanoTime(), "mode", mode, "g", group);
		}
		else if ("read".equals(mode)) {
			this.history.event("enter", "h", holder, "c", this.settings.id(), "k", key, "tok", token, "seq",
					enter.seq(), "rt", enter.micros(), "ns", System.nanoTime(), "mode", mode, "read", true);
		}
		else if (permits > 1) {
			this.history.event("enter", "h", holder, "c", this.settings.id(), "k", key, "tok", token, "seq",
					enter.seq(), "rt", enter.micros(), "ns", System.nanoTime(), "mode", mode, "permits", permits);
		}
		else {
			this.history.event("enter", "h", holder, "c", this.settings.id(), "k", key, "tok", token, "seq",
					enter.seq(), "rt", enter.micros(), "ns", System.nanoTime(), "mode", mode);
		}
	}

	/**
	 * Read the fenced and the unfenced counter.
	 */
	private static Result[] read(StorageClient storage, String key, String holder, long token) {
		return new Result[] { storage.op("read", key, holder, token), storage.op("plain-read", key, holder, token) };
	}

	/**
	 * Write both counters incremented from what was read; the fenced one only if its read
	 * was accepted.
	 */
	private void write(StorageClient storage, String key, String holder, long token, Result[] read) {
		Result fenced = read[0];
		if (fenced.accepted()) {
			Result write = storage.op("write", key, holder, token, fenced.value(), fenced.value() + 1);
			this.history.event("write", "h", holder, "seq", write.seq(), "fenced", true, "ok", write.accepted(), "val",
					fenced.value() + 1);
		}
		else {
			this.history.event("write", "h", holder, "seq", fenced.seq(), "fenced", true, "ok", false, "skipped",
					"read rejected");
		}
		Result plainRead = read[1];
		Result plain = storage.op("plain-write", key, holder, token, plainRead.value(), plainRead.value() + 1);
		this.history.event("write", "h", holder, "seq", plain.seq(), "fenced", false, "ok", true, "val",
				plainRead.value() + 1);
	}

	private void exit(StorageClient storage, String key, String holder, long token) {
		Result exit = storage.op("exit", key, holder, token);
		this.history.event("exit", "h", holder, "seq", exit.seq(), "rt", exit.micros(), "ns", System.nanoTime());
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
