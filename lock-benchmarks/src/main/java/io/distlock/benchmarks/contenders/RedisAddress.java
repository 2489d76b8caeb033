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

package io.distlock.benchmarks.contenders;

import org.springframework.util.Assert;

/**
 * Where a benchmark's Redis listens: always a loopback address.
 *
 * @param host the host, a loopback address
 * @param port the port
 */
public record RedisAddress(String host, int port) {

	/**
	 * Check that the address is on the loopback interface.
	 */
	public RedisAddress {
		Assert.isTrue("127.0.0.1".equals(host) || "localhost".equals(host) || "::1".equals(host),
				() -> "Benchmarks only run against a loopback Redis, not " + host);
	}

	/**
	 * Parse {@code host:port}.
	 * @param value the address
	 * @return the address
	 */
	public static RedisAddress parse(String value) {
		int colon = value.lastIndexOf(':');
		Assert.isTrue(colon > 0, () -> "Expected host:port but got '" + value + "'");
		return new RedisAddress(value.substring(0, colon), Integer.parseInt(value.substring(colon + 1)));
	}

	/**
	 * Return the address as a {@code redis://} URL.
	 * @return the URL
	 */
	public String url() {
		return "redis://" + this.host + ":" + this.port;
	}

	@Override
	public String toString() {
		return this.host + ":" + this.port;
	}

}
