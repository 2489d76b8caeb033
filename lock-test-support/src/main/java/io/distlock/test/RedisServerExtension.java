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

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit Jupiter extension that starts Redis before all tests of a class and closes it
 * after them, whatever their outcome. Register it on a static field: <pre class="code">
 * &#064;RegisterExtension
 * static final RedisServerExtension redis = RedisServerExtension.singleNode();
 * </pre> Before each test every server is flushed (unless
 * {@link #flushBeforeEach(boolean) turned off}); after each test a server that the test
 * stopped, killed or paused is brought back, so faults do not leak into the next test.
 */
public final class RedisServerExtension
		implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

	private final int count;

	private final String[] extraArgs;

	private boolean flushBeforeEach = true;

	private @Nullable List<RedisEndpoint> endpoints;

	private @Nullable AutoCloseable resource;

	private @Nullable String owner;

	private RedisServerExtension(int count, String[] extraArgs) {
		this.count = count;
		this.extraArgs = extraArgs;
	}

	/**
	 * Create an extension for one server: the external one when
	 * {@code DISTLOCK_REDIS_URL} is set, else a {@link RedisServer} it starts.
	 * @return the extension
	 */
	public static RedisServerExtension singleNode() {
		return new RedisServerExtension(0, new String[0]);
	}

	/**
	 * Create an extension for the given number of {@link RedisServer} processes it
	 * starts, regardless of {@code DISTLOCK_REDIS_URL}.
	 * @param count how many servers to start
	 * @param extraArgs further {@code redis-server} arguments given to every server
	 * @return the extension
	 */
	public static RedisServerExtension servers(int count, String... extraArgs) {
		if (count < 1) {
			throw new IllegalArgumentException("count must be at least 1 but was " + count);
		}
		return new RedisServerExtension(count, extraArgs.clone());
	}

	/**
	 * Set whether every server is flushed before each test; on by default.
	 * @param flush whether to flush
	 * @return this extension
	 */
	public RedisServerExtension flushBeforeEach(boolean flush) {
		this.flushBeforeEach = flush;
		return this;
	}

	/**
	 * Return the first (for {@link #singleNode()} the only) endpoint.
	 * @return the endpoint
	 */
	public RedisEndpoint endpoint() {
		return endpoint(0);
	}

	/**
	 * Return the endpoint at the given index.
	 * @param index the zero-based index
	 * @return the endpoint
	 */
	public RedisEndpoint endpoint(int index) {
		return endpoints().get(index);
	}

	/**
	 * Return the {@link RedisServer} process at the given index.
	 * @param index the zero-based index
	 * @return the server
	 * @throws IllegalStateException if the endpoint is an external server
	 */
	public RedisServer server(int index) {
		if (endpoint(index) instanceof RedisServer server) {
			return server;
		}
		throw new IllegalStateException(endpoint(index) + " is not a server process that the harness controls");
	}

	/**
	 * Return all endpoints, in start order.
	 * @return an unmodifiable list of the endpoints
	 */
	public List<RedisEndpoint> endpoints() {
		List<RedisEndpoint> endpoints = this.endpoints;
		if (endpoints == null) {
			throw new IllegalStateException(
					"Redis is not started: register RedisServerExtension with @RegisterExtension on a static field");
		}
		return endpoints;
	}

	/**
	 * Return the URIs of all endpoints, in start order.
	 * @return the URIs
	 */
	public List<String> uris() {
		return endpoints().stream().map(RedisEndpoint::uri).toList();
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		// Nested test classes call this again; the servers of the outermost class serve
		// them all.
		if (this.endpoints != null) {
			return;
		}
		if (this.count == 0) {
			RedisEndpoint endpoint = RedisEndpoint.singleNode();
			this.endpoints = List.of(endpoint);
			this.resource = endpoint;
		}
		else {
			RedisServers servers = RedisServers.start(this.count, this.extraArgs);
			this.endpoints = List.copyOf(servers.list());
			this.resource = servers;
		}
		this.owner = context.getUniqueId();
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		if (this.flushBeforeEach) {
			endpoints().forEach(RedisEndpoint::flushAll);
		}
	}

	@Override
	public void afterEach(ExtensionContext context) {
		for (RedisEndpoint endpoint : endpoints()) {
			if (endpoint instanceof RedisServer server) {
				server.ensureRunning();
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		AutoCloseable resource = this.resource;
		if (resource == null || !context.getUniqueId().equals(this.owner)) {
			return;
		}
		this.endpoints = null;
		this.resource = null;
		this.owner = null;
		resource.close();
	}

}
