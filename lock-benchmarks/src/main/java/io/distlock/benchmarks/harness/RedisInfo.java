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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.distlock.benchmarks.contenders.RedisAddress;
import io.distlock.test.RespConnection;

/**
 * One reading of Redis' {@code INFO}: its fields by name, for deltas of command counts
 * and CPU time over a measurement window.
 */
public final class RedisInfo {

	private final Map<String, String> fields;

	private RedisInfo(Map<String, String> fields) {
		this.fields = fields;
	}

	/**
	 * Read {@code INFO} sections from the given Redis.
	 * @param address the Redis
	 * @param sections the sections, such as {@code stats}, {@code cpu},
	 * {@code commandstats}
	 * @return the reading
	 */
	public static RedisInfo read(RedisAddress address, String... sections) {
		Map<String, String> fields = new LinkedHashMap<>();
		try (RespConnection connection = RespConnection.open(address.host(), address.port(), null,
				Duration.ofSeconds(5))) {
			for (String section : sections) {
				Object reply = connection.command("INFO", section);
				for (String line : String.valueOf(reply).split("\r?\n")) {
					int colon = line.indexOf(':');
					if (colon > 0 && !line.startsWith("#")) {
						fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
					}
				}
			}
		}
		return new RedisInfo(fields);
	}

	/**
	 * Return a field as text.
	 * @param name the field name
	 * @return the value, or an empty string
	 */
	public String text(String name) {
		return this.fields.getOrDefault(name, "");
	}

	/**
	 * Return a numeric field.
	 * @param name the field name, such as {@code total_commands_processed}
	 * @return the value, 0 if absent
	 */
	public double number(String name) {
		String value = this.fields.get(name);
		return (value != null) ? Double.parseDouble(value) : 0;
	}

	/**
	 * Return the number of calls of a command from {@code INFO commandstats}.
	 * @param command the command in lower case, such as {@code evalsha}
	 * @return the calls, 0 if it was never called
	 */
	public long calls(String command) {
		String stats = this.fields.get("cmdstat_" + command);
		if (stats == null) {
			return 0;
		}
		for (String part : stats.split(",")) {
			if (part.startsWith("calls=")) {
				return Long.parseLong(part.substring("calls=".length()));
			}
		}
		return 0;
	}

	/**
	 * Return the CPU time Redis used, user and system, in seconds.
	 * @return the CPU seconds
	 */
	public double cpuSeconds() {
		return number("used_cpu_user") + number("used_cpu_sys");
	}

}
