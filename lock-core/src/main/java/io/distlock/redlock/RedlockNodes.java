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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;

import io.distlock.redis.RedisLockClient;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnection;
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

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

	private final List<LettuceConnectionFactory> connectionFactories;

	private final List<RedisLockClient> clients;

	private final Duration timeout;

	private final SimpleAsyncTaskExecutor nodeTasks;

	private final Duration closeTimeout;

	RedlockNodes(List<LettuceConnectionFactory> connectionFactories, Duration timeout, Duration closeTimeout) {
		this.connectionFactories = List.copyOf(connectionFactories);
		this.timeout = timeout;
		this.closeTimeout = closeTimeout;
		this.nodeTasks = new SimpleAsyncTaskExecutor("distlock-redlock-node-");
		this.nodeTasks.setDaemon(true);
		this.clients = this.connectionFactories.stream().map(RedlockNodes::nodeClient).toList();
	}

	// Independent masters, never replaced by a replica: tokens from the counter alone,
	// which keeps the nodes' counters in step (no raise after each lock).
	private static RedisLockClient nodeClient(LettuceConnectionFactory connectionFactory) {
		RedisLockClient client = new RedisLockClient(connectionFactory);
		client.setFencingTokensFromClock(false);
		return client;
	}

	/**
	 * Create and start a connection factory for each node URL.
	 * @param urls the node URLs
	 * @param timeout the command timeout of each node
	 * @return the nodes, to be closed when done
	 * @throws IllegalArgumentException if a URL is invalid; the message names its index
	 * and at most its scheme, never a part that may hold credentials
	 */
	public static RedlockNodes connect(List<String> urls, Duration timeout) {
		return connect(urls, timeout, null);
	}

	/**
	 * Create and start a connection factory for each node URL, with the given TLS
	 * settings for {@code rediss://} nodes.
	 * @param urls the node URLs
	 * @param timeout the command timeout of each node
	 * @param sslOptions the key and trust material for TLS, or {@code null} for the JVM's
	 * defaults; when given, every URL must be {@code rediss://}
	 * @return the nodes, to be closed when done
	 * @throws IllegalArgumentException if a URL is invalid, or plain while TLS options
	 * are given; the message names its index and at most its scheme
	 */
	public static RedlockNodes connect(List<String> urls, Duration timeout, @Nullable SslOptions sslOptions) {
		Assert.isTrue(timeout.toMillis() >= 1,
				() -> "The Redlock node timeout must be at least 1ms but was " + timeout);
		// Every URL is checked before any is connected to: a password with a comma,
		// split in two by a comma-separated property, can leave a first half that looks
		// like a valid URL, whose "host" would otherwise be logged as unreachable.
		List<NodeUrls.Node> nodes = new ArrayList<>(urls.size());
		for (int i = 0; i < urls.size(); i++) {
			NodeUrls.Node node = NodeUrls.parse(i, urls.get(i));
			if (sslOptions != null && !node.ssl()) {
				throw NodeUrls.invalid(i, urls.get(i),
						"TLS settings are given for the nodes, but it is not a rediss:// URL");
			}
			nodes.add(node);
		}
		return new RedlockNodes(NodeConnectionFactories.create(nodes, timeout, sslOptions), timeout, CLOSE_TIMEOUT);
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
	 * Ping every node at once and count those that answered within the node timeout. The
	 * call returns after at most about the node timeout; a node that has not answered by
	 * then counts as unreachable, and its ping ends in the background within its connect
	 * or command timeout.
	 * @return how many nodes answered, out of {@code connectionFactories().size()}
	 */
	public int countReachable() {
		List<CompletableFuture<Boolean>> pings = this.connectionFactories.stream()
			.map((factory) -> CompletableFuture.supplyAsync(() -> ping(factory), this.nodeTasks))
			.toList();
		long deadline = System.nanoTime() + this.timeout.toNanos();
		int reachable = 0;
		for (CompletableFuture<Boolean> ping : pings) {
			try {
				if (ping.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
					reachable++;
				}
			}
			catch (TimeoutException | ExecutionException ex) {
				// Not answered in time: unreachable for this count.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		return reachable;
	}

	private static boolean ping(LettuceConnectionFactory factory) {
		try (RedisConnection connection = factory.getConnection()) {
			return connection.ping() != null;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Close every node's connections, all at once, waiting at most a few seconds in all.
	 * Lettuce's client shutdown waits for its connections without a bound, and has been
	 * seen never to end; a node still shutting down when the wait is over is logged and
	 * left to end, or not, on a daemon thread, so that the application can stop.
	 */
	@Override
	public void close() {
		List<CompletableFuture<Void>> shutdowns = this.connectionFactories.stream()
			.map((factory) -> CompletableFuture.runAsync(factory::destroy, this.nodeTasks))
			.toList();
		long deadline = System.nanoTime() + this.closeTimeout.toNanos();
		for (int i = 0; i < shutdowns.size(); i++) {
			try {
				shutdowns.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				logger.warn("Redlock node " + i + " did not shut down within " + this.closeTimeout
						+ "; its connections are left to close in the background");
			}
			catch (ExecutionException ex) {
				logger.warn("Redlock node " + i + " failed to shut down: " + ex.getCause());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/**
	 * Return a form of a node URL that is safe to show in a message or a log: its scheme
	 * alone, if it is one of Redis, since anything else of it may be, or hold, a user
	 * name or password.
	 * @param url the node URL, valid or not
	 * @return {@code redis://...}, {@code rediss://...}, or {@code ...} for anything else
	 */
	public static String redact(String url) {
		return NodeUrls.redact(url);
	}

}
