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
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import io.distlock.redis.ReplicaAcknowledgement.Acknowledged;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * Runs a script and {@code WAIT}, pipelined in one round trip, on Lettuce's connection to
 * the primary: the connection the template's callback uses, or on Redis Cluster the
 * connection to the primary that serves the script's keys. Loaded only when Lettuce is on
 * the class path.
 */
final class LettuceAcknowledgement {

	private LettuceAcknowledgement() {
	}

	@SuppressWarnings("unchecked")
	static <T> @Nullable Acknowledged<T> run(RedisConnection connection, RedisScript<T> script, List<String> keys,
			String[] args, int replicas, Duration timeout) {
		Object nativeConnection = connection.getNativeConnection();
		byte[][] keysAndArgs = LockScript.keysAndArgs(keys, args);
		byte[][] keyBytes = new byte[keys.size()][];
		System.arraycopy(keysAndArgs, 0, keyBytes, 0, keys.size());
		byte[][] argBytes = new byte[args.length][];
		System.arraycopy(keysAndArgs, keys.size(), argBytes, 0, args.length);
		RedisClusterAsyncCommands<byte[], byte[]> commands;
		Duration commandTimeout;
		if (nativeConnection instanceof RedisAdvancedClusterAsyncCommands<?, ?> clusterCommands) {
			StatefulRedisClusterConnection<byte[], byte[]> cluster = ((RedisAdvancedClusterAsyncCommands<byte[], byte[]>) clusterCommands)
				.getStatefulConnection();
			int slot = SlotHash.getSlot(keyBytes[0]);
			RedisClusterNode owner = cluster.getPartitions().getPartitionBySlot(slot);
			Assert.state(owner != null, () -> "No Redis Cluster node serves slot " + slot);
			StatefulRedisConnection<byte[], byte[]> node = cluster.getConnection(owner.getNodeId());
			commands = node.async();
			commandTimeout = node.getTimeout();
		}
		else if (nativeConnection instanceof RedisAsyncCommands<?, ?> standalone) {
			commands = (RedisAsyncCommands<byte[], byte[]>) standalone;
			commandTimeout = ((RedisAsyncCommands<byte[], byte[]>) standalone).getStatefulConnection().getTimeout();
		}
		else {
			return null;
		}
		ScriptOutputType type = (script.getResultType() == Long.class) ? ScriptOutputType.INTEGER
				: ScriptOutputType.MULTI;
		long waitMillis = commandTimeout.plus(timeout).toMillis();
		RedisFuture<Object> reply = commands.evalsha(script.getSha1(), type, keyBytes, argBytes);
		RedisFuture<Long> acknowledged = commands.waitForReplication(replicas, timeout.toMillis());
		Object result;
		try {
			result = await(reply, waitMillis);
		}
		catch (RedisSystemException ex) {
			if (!RedisCalls.isRedisError(ex, "NOSCRIPT")) {
				throw ex;
			}
			// A primary that just took over does not know the script yet.
			reply = commands.eval(ReplicaAcknowledgement.bytes(script.getScriptAsString()), type, keyBytes, argBytes);
			acknowledged = commands.waitForReplication(replicas, timeout.toMillis());
			result = await(reply, waitMillis);
		}
		return new Acknowledged<>((T) result, ReplicaAcknowledgement.number(await(acknowledged, waitMillis)));
	}

	private static <V> V await(RedisFuture<V> future, long millis) {
		try {
			return future.get(millis, TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			throw new RedisSystemException(String.valueOf(ex.getCause().getMessage()), ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new RedisSystemException("Redis did not answer within " + millis + "ms", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException("Interrupted while waiting for Redis", ex);
		}
	}

}
