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

import java.util.Arrays;
import java.util.List;

import org.springframework.core.env.SimpleCommandLinePropertySource;

/**
 * What the demo does, from its command line: {@code --demo.nodes=2},
 * {@code --demo.buyers=200}, {@code --demo.stock=50}, {@code --demo.long-work=true}, and
 * any {@code --spring.data.redis.*} arguments, which point the nodes at an existing Redis
 * instead of an embedded one.
 *
 * @param nodes how many nodes (JVMs) to start
 * @param buyers how many concurrent purchases each race fires
 * @param stock the units in stock at the start of each race
 * @param longWork whether to show a lock held past its ttl by renewal
 * @param redisArguments the {@code --spring.data.redis.*} arguments given
 */
public record DemoOptions(int nodes, int buyers, int stock, boolean longWork, List<String> redisArguments) {

	private static final List<String> REDIS_LOCATION = List.of("--spring.data.redis.url=", "--spring.data.redis.host=",
			"--spring.data.redis.port=");

	/**
	 * Validate the options.
	 * @param nodes how many nodes (JVMs) to start
	 * @param buyers how many concurrent purchases each race fires
	 * @param stock the units in stock at the start of each race
	 * @param longWork whether to show a lock held past its ttl by renewal
	 * @param redisArguments the {@code --spring.data.redis.*} arguments given
	 */
	public DemoOptions {
		if (nodes < 1 || buyers < 1 || stock < 0) {
			throw new IllegalArgumentException("Need at least 1 node and 1 buyer, and a stock of 0 or more; got "
					+ nodes + " nodes, " + buyers + " buyers, stock " + stock);
		}
		redisArguments = List.copyOf(redisArguments);
	}

	/**
	 * Read the options from the command line.
	 * @param args the command-line arguments
	 * @return the options
	 */
	public static DemoOptions parse(String... args) {
		SimpleCommandLinePropertySource source = new SimpleCommandLinePropertySource(args);
		List<String> redis = Arrays.stream(args).filter((arg) -> arg.startsWith("--spring.data.redis.")).toList();
		return new DemoOptions(intOption(source, "demo.nodes", 2), intOption(source, "demo.buyers", 200),
				intOption(source, "demo.stock", 50), !"false".equals(source.getProperty("demo.long-work")), redis);
	}

	/**
	 * Return whether the nodes use an existing Redis given on the command line.
	 * @return whether a Redis location was given
	 */
	public boolean hasExternalRedis() {
		return this.redisArguments.stream().anyMatch((arg) -> REDIS_LOCATION.stream().anyMatch(arg::startsWith));
	}

	private static int intOption(SimpleCommandLinePropertySource source, String name, int defaultValue) {
		String value = source.getProperty(name);
		if (value == null) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--" + name + " must be a whole number, not '" + value + "'", ex);
		}
	}

}
