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

package io.distlock.redlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Creates the connection factories of {@link RedlockNodes}: one started Lettuce
 * connection factory per node, with the node timeout as its command timeout, and its
 * connection opened ahead of the first lock.
 */
final class NodeConnectionFactories {

	// Logs as the nodes: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(RedlockNodes.class);

	private NodeConnectionFactories() {
	}

	/**
	 * Create and start a connection factory for each node, destroying those created
	 * already when one fails.
	 * @param nodes the checked node URLs
	 * @param timeout the command timeout of each node
	 * @param sslOptions the key and trust material for TLS, or {@code null} for the JVM's
	 * defaults
	 * @return the started connection factories, in the order of the nodes
	 */
	static List<LettuceConnectionFactory> create(List<NodeUrls.Node> nodes, Duration timeout,
			@Nullable SslOptions sslOptions) {
		List<LettuceConnectionFactory> factories = new ArrayList<>(nodes.size());
		try {
			for (NodeUrls.Node node : nodes) {
				factories.add(connectionFactory(node, timeout, sslOptions));
			}
		}
		catch (RuntimeException ex) {
			factories.forEach(LettuceConnectionFactory::destroy);
			throw ex;
		}
		return factories;
	}

	private static LettuceConnectionFactory connectionFactory(NodeUrls.Node node, Duration timeout,
			@Nullable SslOptions sslOptions) {
		ClientOptions.Builder options = ClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(connectTimeout(timeout)).build());
		if (sslOptions != null) {
			options.sslOptions(sslOptions);
		}
		LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
			.commandTimeout(timeout)
			.clientOptions(options.build());
		if (node.ssl()) {
			client.useSsl();
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(node.server(), client.build());
		factory.afterPropertiesSet();
		factory.start();
		connectEarly(factory);
		return factory;
	}

	/**
	 * Open the node's connection now, so that the first acquisitions do not spend their
	 * short node timeout connecting. A node that is down is connected to later, when it
	 * is back.
	 */
	private static void connectEarly(LettuceConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			connection.ping();
		}
		catch (RuntimeException ex) {
			logger.warn("Redlock node " + factory.getHostName() + ":" + factory.getPort()
					+ " is not reachable yet; locks need a majority of the nodes: " + ex.getMessage());
		}
	}

	private static Duration connectTimeout(Duration timeout) {
		// A TCP connect (and TLS handshake) may take longer than a command on a warm
		// connection.
		return (timeout.compareTo(Duration.ofSeconds(1)) < 0) ? Duration.ofSeconds(1) : timeout;
	}

}
