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

package io.distlock.benchmarks.harness;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;

import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.contenders.Contender;
import io.distlock.benchmarks.contenders.LockContender;
import io.distlock.benchmarks.contenders.RedisAddress;

/**
 * Handoff latency: how long after a holder starts releasing a lock the next waiter holds
 * it. Two threads, each with its own instance of the contender (its own connections and
 * notification subscription, as two application instances would have), take turns: the
 * waiter announces itself and calls the lock, the holder keeps the lock a further
 * {@value #HOLD_MILLIS} ms so that the waiter is parked in its wait, notes the time and
 * releases, and the waiter notes when its body starts. Warm-up rounds are not recorded.
 *
 * <p>
 * Arguments: contender id, Redis {@code host:port}, warm-up rounds, measured rounds,
 * output file (JSON).
 */
public final class HandoffLatency {

	static final long HOLD_MILLIS = 3;

	private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS);

	private final Histogram latencies = new Histogram(3);

	private final AtomicInteger announced = new AtomicInteger(-1);

	private final AtomicInteger acquired = new AtomicInteger(-1);

	private final AtomicInteger holders = new AtomicInteger();

	private final int warmup;

	private final int total;

	private volatile long releaseStart;

	private volatile boolean overlapped;

	private HandoffLatency(int warmup, int rounds) {
		this.warmup = warmup;
		this.total = warmup + rounds + 1;
	}

	/**
	 * Run the measurement.
	 * @param args contender id, {@code host:port}, warm-up rounds, measured rounds,
	 * output file
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		Contender contender = Contender.of(args[0]);
		RedisAddress address = RedisAddress.parse(args[1]);
		HandoffLatency measurement = new HandoffLatency(Integer.parseInt(args[2]), Integer.parseInt(args[3]));
		try (LockContender first = contender.create(address); LockContender second = contender.create(address)) {
			measurement.run(first, second, "bench:handoff:" + contender.id());
		}
		Histogram latencies = measurement.latencies;
		Map<String, Object> result = Map.of("contender", contender.id(), "holdMillis", HOLD_MILLIS, "samples",
				latencies.getTotalCount(), "overlapped", measurement.overlapped, "histogram",
				BenchmarkFiles.encode(latencies));
		BenchmarkFiles.writeString(Path.of(args[4]), new ObjectMapper().writeValueAsString(result));
		System.out.printf("%s: handoff p50 %.1f us, p99 %.1f us over %d handoffs%n", contender.id(),
				latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0,
				latencies.getTotalCount());
		System.exit(measurement.overlapped ? 2 : 0);
	}

	private void run(LockContender first, LockContender second, String key) throws InterruptedException {
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Thread[] threads = { new Thread(() -> takeTurns(first, key, 0, failure), "handoff-0"),
				new Thread(() -> takeTurns(second, key, 1, failure), "handoff-1") };
		for (Thread thread : threads) {
			thread.start();
		}
		for (Thread thread : threads) {
			thread.join(TimeUnit.MINUTES.toMillis(5));
			if (thread.isAlive()) {
				thread.interrupt();
				throw new IllegalStateException("Handoff measurement did not finish in 5 minutes");
			}
		}
		if (failure.get() != null) {
			throw new IllegalStateException("Handoff measurement failed", failure.get());
		}
	}

	/**
	 * One thread's part: rounds {@code first}, {@code first + 2}, ... are its
	 * acquisitions.
	 */
	private void takeTurns(LockContender contender, String key, int first, AtomicReference<Throwable> failure) {
		try {
			for (int round = first; round < this.total && failure.get() == null; round += 2) {
				int current = round;
				// The other thread holds the lock of the previous round before this one
				// waits for it.
				awaitAtLeast(this.acquired, current - 1);
				this.announced.set(current);
				contender.withLock(key, () -> hold(current));
			}
		}
		catch (Throwable ex) {
			failure.compareAndSet(null, ex);
		}
	}

	private void hold(int round) {
		long acquiredAt = System.nanoTime();
		if (this.holders.incrementAndGet() != 1) {
			this.overlapped = true;
		}
		if (round > this.warmup) {
			this.latencies.recordValue(acquiredAt - this.releaseStart);
		}
		this.acquired.set(round);
		if (round + 1 < this.total) {
			// The next waiter has called the lock; give it time to find it busy and park.
			awaitAtLeast(this.announced, round + 1);
			long until = System.nanoTime() + HOLD_NANOS;
			while (until - System.nanoTime() > 0) {
				LockSupport.parkNanos(until - System.nanoTime());
			}
		}
		this.holders.decrementAndGet();
		this.releaseStart = System.nanoTime();
	}

	private static void awaitAtLeast(AtomicInteger value, int expected) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (value.get() < expected) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("The other thread did not take its turn in 30 s");
			}
			LockSupport.parkNanos(20_000);
		}
	}

}
