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

package io.distlock.benchmarks.jmh;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import io.distlock.benchmarks.BenchmarkFiles;
import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.benchmarks.harness.RedisInfo;

/**
 * The CPU time that the measurement iterations cost: of this JVM (all its threads, the
 * client's I/O threads included) and of the Redis server, with the commands and pub/sub
 * messages Redis processed meanwhile. Divided by the operations, it gives the cost of one
 * operation, which a busy shared machine disturbs far less than throughput.
 */
final class CpuMeter {

	/**
	 * The INFO sections read at each end of an iteration, {@code stats} last, so that the
	 * other INFO commands of a reading fall outside the counted commands.
	 */
	private static final String[] SECTIONS = { "commandstats", "cpu", "stats" };

	private final com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	private final RedisAddress redis;

	private boolean measuring;

	private long jvmStart;

	private double redisStart;

	private double commandsStart;

	private double commands;

	private long publishesStart;

	private long publishes;

	private long jvmNanos;

	private double bytesInStart;

	private double bytesOutStart;

	private double bytesIn;

	private double bytesOut;

	private double redisSeconds;

	CpuMeter(RedisAddress redis) {
		this.redis = redis;
	}

	void startIteration(IterationParams iteration) {
		this.measuring = iteration.getType() == IterationType.MEASUREMENT;
		if (this.measuring) {
			RedisInfo info = RedisInfo.read(this.redis, SECTIONS);
			this.redisStart = info.cpuSeconds();
			this.publishesStart = publishes(info);
			this.bytesInStart = info.number("total_net_input_bytes");
			this.bytesOutStart = info.number("total_net_output_bytes");
			// The INFO stats command itself counts once it has run.
			this.commandsStart = info.number("total_commands_processed") + 1;
			this.jvmStart = this.os.getProcessCpuTime();
		}
	}

	/**
	 * The pub/sub messages Redis published so far; {@code INFO commandstats} counts the
	 * calls that scripts make too.
	 */
	private static long publishes(RedisInfo info) {
		return info.calls("publish") + info.calls("spublish");
	}

	void endIteration() {
		if (this.measuring) {
			this.jvmNanos += this.os.getProcessCpuTime() - this.jvmStart;
			RedisInfo info = RedisInfo.read(this.redis, SECTIONS);
			this.redisSeconds += info.cpuSeconds() - this.redisStart;
			this.publishes += publishes(info) - this.publishesStart;
			// Bytes Redis read and wrote, the INFO commands of the readings included: a
			// few
			// hundred bytes an iteration, against thousands of operations.
			this.bytesIn += info.number("total_net_input_bytes") - this.bytesInStart;
			this.bytesOut += info.number("total_net_output_bytes") - this.bytesOutStart;
			// Less the INFO commands of this reading that counted before stats were read.
			this.commands += info.number("total_commands_processed") - (SECTIONS.length - 1) - this.commandsStart;
			this.measuring = false;
		}
	}

	/**
	 * Print the CPU time per operation.
	 * @param name what was measured
	 * @param operations the operations of the measured iterations
	 */
	void print(String name, long operations) {
		if (operations > 0) {
			System.out.printf(
					"%n%s: JVM CPU %.1f us/op, Redis CPU %.1f us/op, %.2f Redis commands/op, %.2f pub/sub messages/op,"
							+ " %.0f bytes to Redis/op, %.0f bytes from Redis/op over %d operations%n",
					name, this.jvmNanos / 1000.0 / operations, this.redisSeconds * 1e6 / operations,
					this.commands / operations, (double) this.publishes / operations, this.bytesIn / operations,
					this.bytesOut / operations, operations);
		}
	}

	/**
	 * Write the CPU time of the measured iterations and their operation count.
	 * @param directory the directory
	 * @param operations the operations of the measured iterations
	 */
	void write(Path directory, long operations) {
		if (operations == 0) {
			return;
		}
		Map<String, Object> measured = Map.of("operations", operations, "jvmCpuNanos", this.jvmNanos, "redisCpuNanos",
				Math.round(this.redisSeconds * 1e9), "redisCommands", Math.round(this.commands), "pubsubMessages",
				this.publishes, "bytesToRedis", Math.round(this.bytesIn), "bytesFromRedis", Math.round(this.bytesOut));
		try {
			BenchmarkFiles.writeString(directory.resolve(UUID.randomUUID() + ".json"),
					new ObjectMapper().writeValueAsString(measured));
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
