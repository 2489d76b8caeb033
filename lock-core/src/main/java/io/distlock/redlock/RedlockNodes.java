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

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;

import io.distlock.redis.RedisLockClient;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * The connections to the independent Redis masters of Redlock: one Lettuce connection
 * factory per node URL ({@code redis://[[user]:password@]host[:port][/database]}, or
 * {@code rediss://} for TLS), each with a short command timeout of its own.
 *
 * <p>
 * These factories are deliberately not beans, so that the application's own Redis
 * connection ({@code spring.data.redis.*}) keeps serving everything else.
 */
public final class RedlockNodes implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedlockNodes.class);

	private final List<LettuceConnectionFactory> connectionFactories;

	private final List<RedisLockClient> clients;

	private RedlockNodes(List<LettuceConnectionFactory> connectionFactories) {
		this.connectionFactories = List.copyOf(connectionFactories);
		this.clients = this.connectionFactories.stream().map(RedisLockClient::new).toList();
	}

	/**
	 * Create and start a connection factory for each node URL.
	 * @param urls the node URLs
	 * @param timeout the command timeout of each node
	 * @return the nodes, to be closed when done
	 * @throws IllegalArgumentException if a URL is invalid; its credentials are not shown
	 */
	public static RedlockNodes connect(List<String> urls, Duration timeout) {
		Assert.isTrue(timeout.toMillis() >= 1,
				() -> "The Redlock node timeout must be at least 1ms but was " + timeout);
		List<LettuceConnectionFactory> factories = new ArrayList<>(urls.size());
		try {
			for (int i = 0; i < urls.size(); i++) {
				factories.add(connectionFactory(i, urls.get(i), timeout));
			}
		}
		catch (RuntimeException ex) {
			factories.forEach(LettuceConnectionFactory::destroy);
			throw ex;
		}
		return new RedlockNodes(factories);
	}

	/**
	 * Return one lock client per node, in the order of the URLs.
	 * @return the node clients
	 */
	public List<RedisLockClient> clients() {
		return this.clients;
	}

	/**
	 * Return the connection factory of each node, in the order of the URLs.
	 * @return the node connection factories
	 */
	public List<LettuceConnectionFactory> connectionFactories() {
		return this.connectionFactories;
	}

	/**
	 * Close every node's connections.
	 */
	@Override
	public void close() {
		this.connectionFactories.forEach(LettuceConnectionFactory::destroy);
	}

	private static LettuceConnectionFactory connectionFactory(int index, String url, Duration timeout) {
		RedisURI uri;
		try {
			URI syntax = URI.create(url);
			Assert.isTrue("redis".equals(syntax.getScheme()) || "rediss".equals(syntax.getScheme()), "scheme");
			Assert.isTrue(syntax.getHost() != null, "host");
			uri = RedisURI.create(url);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("distlock.redlock.nodes[" + index + "] '" + withoutCredentials(url)
					+ "' is not a valid Redis URL: expected redis://[[user]:password@]host[:port][/database] "
					+ "or rediss://...");
		}
		// Spring Data Redis maps the URL's host, port, database and credentials, on every
		// Lettuce version it supports (Lettuce 7 removed RedisURI.getPassword()).
		if (!(uri.getSentinels().isEmpty() && uri.getSocket() == null && LettuceConnectionFactory
			.createRedisConfiguration(uri) instanceof RedisStandaloneConfiguration server)) {
			throw new IllegalArgumentException(
					"distlock.redlock.nodes[" + index + "] must name one standalone Redis master");
		}
		LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
			.commandTimeout(timeout)
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(connectTimeout(timeout)).build())
				.build());
		if (uri.isSsl()) {
			client.useSsl();
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client.build());
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

	static String withoutCredentials(String url) {
		int at = url.lastIndexOf('@');
		int scheme = url.indexOf("://");
		return (at > 0 && scheme > 0 && at > scheme) ? url.substring(0, scheme + 3) + "***@" + url.substring(at + 1)
				: url;
	}

}
