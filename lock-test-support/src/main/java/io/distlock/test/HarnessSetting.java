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

import org.jspecify.annotations.Nullable;

/**
 * A setting of the harness, read from a system property or else an environment variable.
 */
enum HarnessSetting {

	/**
	 * Path of a {@code redis-server} binary to use instead of the embedded one.
	 */
	REDIS_SERVER("distlock.redis.server", "DISTLOCK_REDIS_SERVER"),

	/**
	 * Version of the embedded {@code redis-server} to run, {@code 7.0} (the default) or
	 * {@code 6.2}; {@link #REDIS_SERVER} wins over it.
	 */
	REDIS_VERSION("distlock.redis.version", "DISTLOCK_REDIS_VERSION"),

	/**
	 * URL of an already running server that single-node tests use instead of starting
	 * one.
	 */
	REDIS_URL("distlock.redis.url", "DISTLOCK_REDIS_URL");

	private final String property;

	private final String variable;

	HarnessSetting(String property, String variable) {
		this.property = property;
		this.variable = variable;
	}

	@Nullable String value() {
		String value = System.getProperty(this.property);
		if (value == null || value.isBlank()) {
			value = System.getenv(this.variable);
		}
		return (value != null && !value.isBlank()) ? value.trim() : null;
	}

	String describe() {
		return this.variable + " (or system property " + this.property + ")";
	}

}
