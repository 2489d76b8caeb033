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

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One open RESP connection per cluster node, reused for every command the harness sends
 * it.
 * <p>
 * Connections are kept open: a connection per poll would leave thousands of ephemeral
 * ports in TIME_WAIT, some of them cluster bus ports of nodes to come.
 */
final class ClusterConnections implements AutoCloseable {

	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

	private final @Nullable String password;

	private final Map<RedisServer, RespConnection> connections = new HashMap<>();

	ClusterConnections(@Nullable String password) {
		this.password = password;
	}

	/**
	 * Send a command to a node on its cached connection, opening one if there is none or
	 * the cached one broke.
	 */
	synchronized @Nullable Object command(RedisServer node, String... args) {
		RespConnection connection = this.connections.remove(node);
		if (connection != null) {
			try {
				Object reply = connection.command(args);
				this.connections.put(node, connection);
				return reply;
			}
			catch (UncheckedIOException ex) {
				// Most likely the node was restarted since: try once more on a new
				// connection.
				connection.close();
			}
			catch (RuntimeException ex) {
				this.connections.put(node, connection);
				throw ex;
			}
		}
		connection = RespConnection.open(RedisServer.HOST, node.port(), this.password, COMMAND_TIMEOUT);
		try {
			Object reply = connection.command(args);
			this.connections.put(node, connection);
			return reply;
		}
		catch (RedisCommandException ex) {
			this.connections.put(node, connection);
			throw ex;
		}
		catch (RuntimeException ex) {
			connection.close();
			throw ex;
		}
	}

	/**
	 * Close every cached connection.
	 */
	@Override
	public synchronized void close() {
		this.connections.values().forEach(RespConnection::close);
		this.connections.clear();
	}

}
