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

package io.distlock.sample.redis;

import io.distlock.test.RedisServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;

/**
 * The {@code redis-server} this application started because no Redis was configured. It
 * is a bean of the application context (named {@code embeddedRedis}) only then, and is
 * stopped when the context closes, after every bean that uses Redis.
 */
public final class EmbeddedRedis implements DisposableBean {

	private static final Log logger = LogFactory.getLog(EmbeddedRedis.class);

	private final RedisServer server;

	EmbeddedRedis(RedisServer server) {
		this.server = server;
	}

	/**
	 * Return the host the server listens on.
	 * @return {@code 127.0.0.1}
	 */
	public String host() {
		return this.server.host();
	}

	/**
	 * Return the port the server listens on.
	 * @return the port
	 */
	public int port() {
		return this.server.port();
	}

	/**
	 * Return whether the server process is running.
	 * @return whether it runs
	 */
	public boolean isRunning() {
		return this.server.isRunning();
	}

	/**
	 * Stop the server and delete its working directory.
	 */
	@Override
	public void destroy() {
		this.server.close();
		logger.info("Stopped the embedded " + this.server);
	}

	@Override
	public String toString() {
		return "embedded " + this.server;
	}

}
