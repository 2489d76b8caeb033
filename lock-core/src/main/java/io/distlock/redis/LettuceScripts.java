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

package io.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.util.Assert;

/**
 * The lock scripts on a long-lived Lettuce connection of their own, with a string codec:
 * {@code EVALSHA}, and {@code EVAL} when Redis does not know the script yet.
 *
 * <p>
 * Why: through a template, every script call gets the shared connection, wraps it in
 * Spring Data's connection and converts keys, arguments and replies between strings and
 * bytes, about 2 KB and a few microseconds per lock operation. This connection comes from
 * the factory's own client, so it has the factory's address, Sentinel master lookup,
 * credentials, TLS, database, client resources (metrics and tracing) and command timeout;
 * a failure of Redis is translated as the template translates it, into Spring's
 * {@link DataAccessException}s. It is used only for a factory that is no Cluster and
 * reads nothing from replicas (or resolves its master through Sentinel): elsewhere the
 * template keeps routing the scripts. A factory restarted with a new client gets a new
 * connection; the old one closes with its client.
 */
final class LettuceScripts {

	// Logged as the lock client, where users look for it.
	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private final LettuceConnectionFactory factory;

	private final ReentrantLock connecting = new ReentrantLock();

	private volatile @Nullable Connected connected;

	private volatile boolean unavailable;

	private LettuceScripts(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	/**
	 * Return the scripts on a connection of the given factory's client, or {@code null}
	 * for a factory whose scripts must go through the template: no Lettuce factory, or
	 * one of a Cluster or reading from static replicas.
	 */
	static @Nullable LettuceScripts of(@Nullable RedisConnectionFactory factory) {
		if (factory instanceof LettuceConnectionFactory lettuce && !lettuce.isClusterAware()
				&& (lettuce.isRedisSentinelAware() || lettuce.getClientConfiguration().getReadFrom().isEmpty())) {
			return new LettuceScripts(lettuce);
		}
		return null;
	}

	/**
	 * Tell whether the scripts can run here: {@code false} once the factory's client
	 * turned out unable to open a connection of its own (a client of static replicas,
	 * which has no address), so that the template runs them.
	 * @throws DataAccessException if Redis cannot be reached
	 */
	boolean isAvailable() {
		return !this.unavailable && connection() != null;
	}

	/**
	 * Return the connection to run the scripts on, opened now if the factory's client has
	 * none yet, or {@code null} if its client cannot open one of its own.
	 * @throws DataAccessException if Redis cannot be reached
	 */
	private @Nullable StatefulRedisConnection<String, String> connection() {
		if (this.unavailable) {
			return null;
		}
		// Asserts the factory is started, as the template's connection would.
		Object client = this.factory.getNativeClient();
		Connected connected = this.connected;
		if (connected != null && connected.client() == client) {
			return connected.connection();
		}
		if (!(client instanceof RedisClient redisClient)) {
			this.unavailable = true;
			return null;
		}
		this.connecting.lock();
		try {
			connected = this.connected;
			if (connected != null && connected.client() == client) {
				return connected.connection();
			}
			StatefulRedisConnection<String, String> connection = redisClient.connect(StringCodec.UTF8);
			this.connected = new Connected(client, connection);
			if (connected != null) {
				connected.connection().closeAsync();
			}
			return connection;
		}
		catch (IllegalStateException ex) {
			// A client made without a RedisURI, for static replicas, connects only with
			// one.
			logger.debug("The lock scripts run through the template: the client has no address of its own", ex);
			this.unavailable = true;
			return null;
		}
		catch (RuntimeException ex) {
			throw translated(ex);
		}
		finally {
			this.connecting.unlock();
		}
	}

	/**
	 * Run a script on the connection, waiting for its reply at most the connection's
	 * command timeout.
	 * @return the reply: integers as {@link Long}, bulk strings as {@link String}
	 * @throws DataAccessException if Redis failed, did not answer in time or refused the
	 * script
	 */
	<T> @Nullable T run(LockScript<T> script, List<String> keys, String... args) {
		StatefulRedisConnection<String, String> connection = connection();
		Assert.state(connection != null, "No connection of the lock scripts' own");
		RedisAsyncCommands<String, String> redis = connection.async();
		String[] keyArray = keys.toArray(new String[0]);
		ScriptOutputType type = List.class.equals(script.getResultType()) ? ScriptOutputType.MULTI
				: ScriptOutputType.INTEGER;
		Duration timeout = connection.getTimeout();
		try {
			return await(redis.evalsha(script.getSha1(), type, keyArray, args), timeout);
		}
		catch (DataAccessException ex) {
			if (!RedisCalls.isRedisError(ex, "NOSCRIPT")) {
				throw ex;
			}
			// A primary that just took over, restarted or was flushed of its scripts.
			return await(redis.eval(script.getScriptAsString(), type, keyArray, args), timeout);
		}
	}

	/**
	 * Load a script into the script cache of the connection's server.
	 */
	void load(LockScript<?> script) {
		StatefulRedisConnection<String, String> connection = connection();
		Assert.state(connection != null, "No connection of the lock scripts' own");
		await(connection.async().scriptLoad(script.getScriptAsString()), connection.getTimeout());
	}

	private static <T> @Nullable T await(RedisFuture<T> reply, Duration timeout) {
		try {
			if (timeout.isZero() || timeout.isNegative()) {
				return reply.get();
			}
			return LettuceFutures.awaitOrCancel(reply, timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			reply.cancel(true);
			throw new RedisSystemException("Interrupted while waiting for Redis", ex);
		}
		catch (ExecutionException ex) {
			throw translated((ex.getCause() != null) ? ex.getCause() : ex);
		}
		catch (RuntimeException ex) {
			throw translated(ex);
		}
	}

	private static DataAccessException translated(Throwable ex) {
		if (ex instanceof DataAccessException dataAccess) {
			return dataAccess;
		}
		DataAccessException translated = (ex instanceof Exception exception) ? EXCEPTIONS.convert(exception) : null;
		return (translated != null) ? translated : new RedisSystemException(ex.getMessage(), ex);
	}

	/**
	 * A connection with the client that opened it.
	 */
	private record Connected(Object client, StatefulRedisConnection<String, String> connection) {

	}

}
