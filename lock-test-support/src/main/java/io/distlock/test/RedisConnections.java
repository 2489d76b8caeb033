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

import java.time.Duration;
import java.util.HashSet;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Creates started Lettuce connection factories for test servers.
 */
public final class RedisConnections {

	/**
	 * The command timeout tests use, short so that a stopped server fails a test fast.
	 */
	public static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final String LETTUCE_CONNECTION_PROVIDER = "io.lettuce.core.internal.AsyncConnectionProvider";

	private RedisConnections() {
	}

	/**
	 * Create and start a connection factory for the endpoint with the test timeout.
	 * @param endpoint the server
	 * @return the started factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisEndpoint endpoint) {
		return connectionFactory(endpoint, TIMEOUT);
	}

	/**
	 * Create and start a connection factory for the endpoint; over TLS when
	 * {@link RedisEndpoint#isTls()}, with {@link #sslOptions()}.
	 * @param endpoint the server
	 * @param timeout the command and connect timeout
	 * @return the started factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisEndpoint endpoint, Duration timeout) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
		if (endpoint.password() != null) {
			server.setPassword(RedisPassword.of(endpoint.password()));
		}
		return connectionFactory(server, endpoint.isTls(), timeout);
	}

	/**
	 * Create and start a connection factory for the endpoint that logs in as the given
	 * ACL user, with the test timeout.
	 * @param endpoint the server
	 * @param username the ACL user, created on the server beforehand
	 * @param password the user's password
	 * @return the started factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisEndpoint endpoint, String username, String password) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(endpoint.host(), endpoint.port());
		server.setUsername(username);
		server.setPassword(RedisPassword.of(password));
		return connectionFactory(server, endpoint.isTls(), TIMEOUT);
	}

	/**
	 * Create and start a connection factory for the cluster, with the test timeout and
	 * topology refresh on every adaptive trigger and every second, so that the client
	 * follows a failover or a moved slot within about a second.
	 * @param cluster the cluster
	 * @return the started factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisCluster cluster) {
		RedisClusterConfiguration nodes = new RedisClusterConfiguration(cluster.nodeAddresses());
		ClusterClientOptions options = ClusterClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(TIMEOUT).build())
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.enablePeriodicRefresh(Duration.ofSeconds(1))
				.build())
			.build();
		return started(new LettuceConnectionFactory(nodes,
				LettuceClientConfiguration.builder().commandTimeout(TIMEOUT).clientOptions(options).build()));
	}

	/**
	 * Create and start a connection factory for the primary of the sentinel group, found
	 * through its sentinels, with the test timeout.
	 * @param group the sentinel group
	 * @return the started factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisSentinelGroup group) {
		RedisSentinelConfiguration sentinels = new RedisSentinelConfiguration(group.masterName(),
				new HashSet<>(group.sentinelAddresses()));
		String password = group.primary().password();
		if (password != null) {
			sentinels.setPassword(RedisPassword.of(password));
		}
		ClientOptions options = ClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(TIMEOUT).build())
			.build();
		return started(new LettuceConnectionFactory(sentinels,
				LettuceClientConfiguration.builder().commandTimeout(TIMEOUT).clientOptions(options).build()));
	}

	/**
	 * Return Lettuce SSL options that trust the {@link TestCertificates} CA and present
	 * the test client certificate when a server asks for one (mutual TLS).
	 * @return the SSL options
	 */
	public static SslOptions sslOptions() {
		return SslOptions.builder()
			.jdkSslProvider()
			.trustManager(TestCertificates.caCertificateFile().toFile())
			.keyManager(TestCertificates.clientCertificateFile().toFile(), TestCertificates.clientKeyFile().toFile(),
					null)
			.build();
	}

	private static LettuceConnectionFactory connectionFactory(RedisStandaloneConfiguration server, boolean tls,
			Duration timeout) {
		ClientOptions.Builder options = ClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(timeout).build());
		LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
			.commandTimeout(timeout);
		if (tls) {
			options.sslOptions(sslOptions());
			// Verifies the chain and that the certificate names 127.0.0.1.
			builder.useSsl();
		}
		LettuceClientConfiguration client = builder.clientOptions(options.build()).build();
		return started(new LettuceConnectionFactory(server, client));
	}

	/**
	 * Destroy a factory and make sure its Lettuce client is shut down. Lettuce 6 and 7
	 * can fail closing a cluster connection while one of its node connections completes
	 * ({@code AsyncConnectionProvider.Sync} marks the connection complete a moment before
	 * it stores it, and a close in that moment reads {@code null}). The factory then
	 * throws that {@link NullPointerException} out of {@code destroy()} and leaves its
	 * client running; this method shuts the client down instead, by which time the node
	 * connection is stored and closes with it. Any other failure is rethrown.
	 * @param factory the factory to destroy
	 */
	public static void destroy(LettuceConnectionFactory factory) {
		AbstractRedisClient client = factory.isRunning() ? factory.getNativeClient() : null;
		try {
			factory.destroy();
		}
		catch (NullPointerException ex) {
			if (client == null || !isLettuceCloseRace(ex)) {
				throw ex;
			}
			client.shutdown(Duration.ZERO, TIMEOUT);
		}
	}

	private static boolean isLettuceCloseRace(NullPointerException ex) {
		StackTraceElement[] trace = ex.getStackTrace();
		return trace.length > 0 && trace[0].getClassName().startsWith(LETTUCE_CONNECTION_PROVIDER);
	}

	private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
