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

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.contenders.DistlockApplication;
import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.benchmarks.contenders.RedissonContender;
import io.distlock.benchmarks.contenders.SpringIntegrationContender;
import io.distlock.test.RespConnection;

import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The cost of keeping many locks: one JVM acquires {@code locks} locks with a lease of
 * {@code leaseMillis} and holds them while its watchdog renews every lease each third of
 * it. Over a measurement window it reads the CPU time of its own process and the commands
 * and CPU time of Redis; before acquiring anything, it reads the same over an idle
 * window, the client's cost with no lock held. Afterwards it checks that every lock is
 * still in Redis, which it would not be, beyond the lease, without renewal.
 *
 * <p>
 * Arguments: contender ({@code distlock-template}, {@code redisson-watchdog} or
 * {@code spring-integration}), Redis {@code host:port}, locks, lease in milliseconds,
 * idle, warm-up and measured seconds, output file (JSON).
 */
public final class RenewalCost {

	private RenewalCost() {
	}

	/**
	 * Run the measurement.
	 * @param args see the class description
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		String contender = args[0];
		RedisAddress address = RedisAddress.parse(args[1]);
		int locks = Integer.parseInt(args[2]);
		Duration lease = Duration.ofMillis(Long.parseLong(args[3]));
		int idleSeconds = Integer.parseInt(args[4]);
		int warmSeconds = Integer.parseInt(args[5]);
		int measuredSeconds = Integer.parseInt(args[6]);
		Path output = Path.of(args[7]);
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("contender", contender);
		result.put("locks", locks);
		result.put("leaseMillis", lease.toMillis());
		try (Holder holder = Holder.create(contender, address, lease)) {
			result.put("idle", measure(address, idleSeconds));
			long start = System.nanoTime();
			for (int i = 0; i < locks; i++) {
				holder.acquire("bench:renewal:" + i);
			}
			result.put("acquireSeconds", (System.nanoTime() - start) / 1e9);
			sleep(warmSeconds);
			result.put("held", measure(address, measuredSeconds));
			long stillHeld = countExisting(address, locks, (i) -> holder.redisKey("bench:renewal:" + i));
			result.put("stillHeldAfter", stillHeld);
			System.out.printf("%s: %d of %d locks still held after %d s with a %d ms lease%n", contender, stillHeld,
					locks, warmSeconds + measuredSeconds, lease.toMillis());
		}
		BenchmarkFiles.writeString(output,
				new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(result));
		System.exit(0);
	}

	private static Map<String, Object> measure(RedisAddress address, int seconds) {
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		RedisInfo before = RedisInfo.read(address, "stats", "cpu", "commandstats");
		long cpuBefore = os.getProcessCpuTime();
		long start = System.nanoTime();
		sleep(seconds);
		long cpuAfter = os.getProcessCpuTime();
		double window = (System.nanoTime() - start) / 1e9;
		RedisInfo after = RedisInfo.read(address, "stats", "cpu", "commandstats");
		Map<String, Object> measured = new LinkedHashMap<>();
		measured.put("windowSeconds", window);
		measured.put("jvmCpuSeconds", (cpuAfter - cpuBefore) / 1e9);
		// The INFO calls of the first reading are part of the delta: 3 commands.
		measured.put("redisCommands",
				after.number("total_commands_processed") - before.number("total_commands_processed") - 3);
		measured.put("redisScriptCalls",
				(after.calls("evalsha") + after.calls("eval")) - (before.calls("evalsha") + before.calls("eval")));
		measured.put("redisCpuSeconds", after.cpuSeconds() - before.cpuSeconds());
		return measured;
	}

	private static long countExisting(RedisAddress address, int locks, IntFunction<String> keys) {
		long existing = 0;
		try (RespConnection connection = RespConnection.open(address.host(), address.port(), null,
				Duration.ofSeconds(10))) {
			for (int from = 0; from < locks; from += 1000) {
				List<String> command = new ArrayList<>();
				command.add("EXISTS");
				for (int i = from; i < Math.min(locks, from + 1000); i++) {
					command.add(keys.apply(i));
				}
				existing += (Long) connection.command(command.toArray(new String[0]));
			}
		}
		return existing;
	}

	private static void sleep(int seconds) {
		try {
			Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Holds locks of one contender on the calling thread, renewed by its watchdog.
	 */
	private interface Holder extends AutoCloseable {

		void acquire(String key);

		String redisKey(String key);

		@Override
		void close();

		static Holder create(String contender, RedisAddress address, Duration lease) {
			return switch (contender) {
				case "distlock-template" -> new DistlockHolder(address, lease);
				case "redisson-watchdog" -> new RedissonHolder(address, lease);
				case "spring-integration" -> new SpringIntegrationHolder(address, lease);
				default -> throw new IllegalArgumentException("No renewal for contender '" + contender + "'");
			};
		}

	}

	private static final class DistlockHolder implements Holder {

		private final DistlockApplication application;

		private final LockTemplate template;

		private final Duration lease;

		private final List<LockHandle> handles = new ArrayList<>();

		DistlockHolder(RedisAddress address, Duration lease) {
			this.application = DistlockApplication.start(address);
			this.template = this.application.lockTemplate();
			this.lease = lease;
		}

		@Override
		public void acquire(String key) {
			this.handles.add(this.template.tryAcquire(LockRequest.of(key, this.lease, Duration.ZERO)).orElseThrow());
		}

		@Override
		public String redisKey(String key) {
			return LockTemplate.DEFAULT_KEY_PREFIX + key;
		}

		@Override
		public void close() {
			this.application.close();
		}

	}

	private static final class RedissonHolder implements Holder {

		private final RedissonContender redisson;

		RedissonHolder(RedisAddress address, Duration lease) {
			this.redisson = new RedissonContender(address, true, lease.toMillis());
		}

		@Override
		public void acquire(String key) {
			// Without a lease time: the watchdog renews it.
			this.redisson.redisson().getLock(key).lock();
		}

		@Override
		public String redisKey(String key) {
			return key;
		}

		@Override
		public void close() {
			this.redisson.close();
		}

	}

	private static final class SpringIntegrationHolder implements Holder {

		private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();

		private final SpringIntegrationContender registry;

		SpringIntegrationHolder(RedisAddress address, Duration lease) {
			this.scheduler.setThreadNamePrefix("si-lock-renewal-");
			this.scheduler.setDaemon(true);
			this.scheduler.initialize();
			this.registry = new SpringIntegrationContender(address, lease, RedisLockRegistry.RedisLockType.PUB_SUB_LOCK,
					this.scheduler);
		}

		@Override
		public void acquire(String key) {
			try {
				if (!this.registry.registry().obtain(key).tryLock(1, TimeUnit.SECONDS)) {
					throw new IllegalStateException("Lock '" + key + "' was busy");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public String redisKey(String key) {
			return "si-lock:" + key;
		}

		@Override
		public void close() {
			// Renewals stop first, so none runs against a closed connection factory.
			this.scheduler.shutdown();
			this.registry.close();
		}

	}

}
