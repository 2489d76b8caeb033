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

import java.lang.reflect.Method;
import java.time.Duration;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.NamedNode;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Says in messages which Redis a connection factory connects to: host and port, the
 * Sentinel master and its sentinels, or the Cluster's nodes; never credentials. Read
 * through the methods Lettuce's and Jedis' factories share, so that neither driver has to
 * be on the class path.
 */
final class RedisAddress {

	private RedisAddress() {
	}

	/**
	 * Describe the Redis the factory connects to, such as {@code Redis at
	 * localhost:6379}.
	 * @param factory the connection factory, blocking or reactive
	 * @return the description
	 */
	static String describe(Object factory) {
		if (call(factory, "getSentinelConfiguration") instanceof RedisSentinelConfiguration sentinel) {
			NamedNode master = sentinel.getMaster();
			return "Redis Sentinel master" + ((master != null) ? " '" + master.getName() + "'" : "") + " (sentinels "
					+ nodes(sentinel.getSentinels()) + ")";
		}
		if (call(factory, "getClusterConfiguration") instanceof RedisClusterConfiguration cluster) {
			return "Redis Cluster (nodes " + nodes(cluster.getClusterNodes()) + ")";
		}
		Object host = call(factory, "getHostName");
		Object port = call(factory, "getPort");
		return (host != null && port != null) ? "Redis at " + host + ":" + port
				: "Redis (connection factory " + factory.getClass().getSimpleName() + ")";
	}

	/**
	 * Describe the Redis the factory connects to and how long a command may wait for its
	 * answer, such as {@code Redis at localhost:6379 (command timeout 2s)}.
	 * @param factory the connection factory, blocking or reactive
	 * @return the description
	 */
	static String describeWithTimeout(Object factory) {
		Object configuration = call(factory, "getClientConfiguration");
		// Lettuce's command timeout, or Jedis' read timeout.
		Object timeout = (configuration != null) ? call(configuration, "getCommandTimeout") : null;
		if (timeout == null && configuration != null) {
			timeout = call(configuration, "getReadTimeout");
		}
		String description = describe(factory);
		return (timeout instanceof Duration duration) ? description + " (command timeout " + format(duration) + ")"
				: description;
	}

	/**
	 * Tell whether the failure is that Redis did not answer: it could not be connected
	 * to, or a command timed out.
	 * @param failure what the driver or Spring Data Redis reported
	 * @return whether it says Redis did not answer
	 */
	static boolean isUnanswered(Throwable failure) {
		if (isUnreachable(failure)) {
			return true;
		}
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			String name = candidate.getClass().getSimpleName();
			if (candidate instanceof QueryTimeoutException || candidate instanceof SocketTimeoutException
					|| name.equals("RedisCommandTimeoutException")) {
				return true;
			}
			if (candidate.getCause() == candidate) {
				break;
			}
		}
		return false;
	}

	private static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0 && millis > 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	/**
	 * Tell whether the failure is that Redis could not be connected to at all.
	 * @param failure what the driver or Spring Data Redis reported
	 * @return whether it says Redis is unreachable
	 */
	static boolean isUnreachable(Throwable failure) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			String name = candidate.getClass().getSimpleName();
			if (candidate instanceof RedisConnectionFailureException || candidate instanceof ConnectException
					|| candidate instanceof UnknownHostException || name.equals("RedisConnectionException")
					|| name.equals("JedisConnectionException")) {
				return true;
			}
			if (candidate.getCause() == candidate) {
				break;
			}
		}
		return false;
	}

	private static String nodes(Iterable<RedisNode> nodes) {
		return StreamSupport.stream(nodes.spliterator(), false)
			.map((node) -> node.getHost() + ":" + node.getPort())
			.collect(Collectors.joining(", "));
	}

	private static @Nullable Object call(Object target, String name) {
		Method method = ReflectionUtils.findMethod(target.getClass(), name);
		if (method == null || method.getParameterCount() != 0) {
			return null;
		}
		try {
			// Through the public interface where the class is not public (Lettuce's and
			// Jedis' client configurations).
			return ReflectionUtils
				.invokeMethod(ClassUtils.getPubliclyAccessibleMethodIfPossible(method, target.getClass()), target);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

}
